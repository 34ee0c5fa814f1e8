import type { SearchCursor } from './search-types.js';
import { JournalError } from '../journal-types.js';

/** Writes a cursor as an opaque URL-safe string. */
export function encodeSearchCursor(cursor: SearchCursor): string {
  const json = JSON.stringify([cursor.sessionId, cursor.updatedAtMs, cursor.offset, cursor.asOfMs]);
  return Buffer.from(json, 'utf8').toString('base64url');
}

/** Reads a cursor from `encodeSearchCursor`; anything else is `invalid_argument`. */
export function decodeSearchCursor(text: string): SearchCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    Array.isArray(parsed) &&
    parsed.length === 4 &&
    typeof parsed[0] === 'string' &&
    Number.isSafeInteger(parsed[1]) &&
    Number.isSafeInteger(parsed[2]) &&
    (parsed[2] as number) >= -1 &&
    Number.isSafeInteger(parsed[3])
  ) {
    return {
      sessionId: parsed[0],
      updatedAtMs: parsed[1] as number,
      offset: parsed[2] as number,
      asOfMs: parsed[3] as number,
    };
  }
  throw new JournalError(
    'invalid_argument',
    'malformed search cursor: pass a next_cursor from a previous SearchResponse, or none to start over',
  );
}
