import { JournalError } from '../journal-types.js';
import { parseSessionId } from '../session-id.js';
import { decodeSearchCursor } from './search-cursor.js';
import { searchKindNames, type SearchKindName, type SearchQuery } from './search-types.js';

/** Most characters in a query. */
export const maxSearchQueryLength = 1024;
/** Hits per page when the request says 0. */
export const defaultSearchLimit = 50;
/** Most hits per page. */
export const maxSearchLimit = 500;

/** A search request as it arrives, before checks. */
export interface SearchRequestInput {
  readonly query: string;
  readonly caseSensitive: boolean;
  readonly regex: boolean;
  readonly sessionId: string;
  readonly kinds: readonly SearchKindName[];
  readonly toolNames: readonly string[];
  readonly limit: number;
  readonly cursor: string;
}

/**
 * The one place search limits live: a query of 1 to 1024 characters that is not only
 * white space, a limit of at most 500, a well-formed session id and cursor. Anything
 * else is `invalid_argument` naming the fix.
 */
export function checkSearchQuery(input: SearchRequestInput): SearchQuery {
  const fail = (message: string): never => {
    throw new JournalError('invalid_argument', message);
  };
  if (input.query.trim() === '') fail('empty search query: give the text to find');
  if (input.query.length > maxSearchQueryLength) {
    fail(
      `search query of ${input.query.length} characters: at most ${maxSearchQueryLength} are allowed`,
    );
  }
  if (input.regex && input.query.includes('\n')) {
    fail(
      'a regex search query cannot contain a newline: match it as \\\\n (journal text is JSON-escaped)',
    );
  }
  if (input.limit > maxSearchLimit) {
    fail(
      `search limit ${input.limit} is over ${maxSearchLimit}: ask for fewer and use next_cursor`,
    );
  }
  let sessionId: string | undefined;
  if (input.sessionId !== '') {
    const parsed = parseSessionId(input.sessionId);
    if (!parsed.ok) fail(`bad session id: ${parsed.error}`);
    sessionId = input.sessionId;
  }
  const kinds = new Set(input.kinds.length > 0 ? input.kinds : searchKindNames);
  return {
    text: input.query,
    caseSensitive: input.caseSensitive,
    regex: input.regex,
    sessionId,
    kinds,
    toolNames: new Set(input.toolNames.filter((name) => name !== '')),
    limit: input.limit === 0 ? defaultSearchLimit : input.limit,
    cursor: input.cursor === '' ? undefined : decodeSearchCursor(input.cursor),
  };
}
