import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { SearchKind, type SearchRequest, type SearchResponseSchema } from '@dsh/gen/service';
import {
  checkSearchQuery,
  encodeSearchCursor,
  type SearchKindName,
  type SessionSearch,
} from '@dsh/journal';
import { abortable } from './abortable.js';

const kindNames: Record<SearchKind, SearchKindName | undefined> = {
  [SearchKind.UNSPECIFIED]: undefined,
  [SearchKind.PROMPT]: 'prompt',
  [SearchKind.ASSISTANT]: 'assistant',
  [SearchKind.TOOL_ARGUMENTS]: 'tool_arguments',
  [SearchKind.TOOL_OUTPUT]: 'tool_output',
};

const kindValues: Record<SearchKindName, SearchKind> = {
  prompt: SearchKind.PROMPT,
  assistant: SearchKind.ASSISTANT,
  tool_arguments: SearchKind.TOOL_ARGUMENTS,
  tool_output: SearchKind.TOOL_OUTPUT,
};

/**
 * The Search RPC: checks the request (`checkSearchQuery`: invalid_argument naming the
 * fix), runs the backend's search and writes its page and cursor. A host whose backend
 * cannot search answers failed_precondition.
 */
export async function searchSessions(
  searcher: SessionSearch | undefined,
  req: SearchRequest,
  signal: AbortSignal,
): Promise<MessageInitShape<typeof SearchResponseSchema>> {
  if (searcher === undefined) {
    throw new ConnectError(
      'this host cannot search: its journal backend has no search (serve with the file backend)',
      Code.FailedPrecondition,
    );
  }
  const query = checkSearchQuery({
    query: req.query,
    caseSensitive: req.caseSensitive,
    regex: req.regex,
    sessionId: req.sessionId,
    kinds: req.kinds.map((k) => kindNames[k]).filter((k): k is SearchKindName => k !== undefined),
    toolNames: req.toolNames,
    limit: req.limit,
    cursor: req.cursor,
  });
  const page = await abortable(searcher.search(query, { signal }), signal);
  return {
    hits: page.hits.map((hit) => ({
      ...hit,
      kind: kindValues[hit.kind],
      matches: [...hit.matches],
    })),
    nextCursor: page.next === undefined ? '' : encodeSearchCursor(page.next),
    timeLimited: page.timeLimited,
  };
}
