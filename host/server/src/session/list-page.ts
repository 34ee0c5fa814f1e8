import { compareSessionIds, JournalError, type JournalSummary } from '@dsh/journal';

/** The most summaries one ListSessions page holds, whatever the client asks. */
export const maxListPageSize = 1_000;

/** One page of a sorted session list and the token of the page after it. */
export interface ListPage {
  readonly sessions: readonly JournalSummary[];
  /** Empty on the last page. */
  readonly nextPageToken: string;
}

/**
 * The page of `sorted` (newest first, as `newestFirst` orders it) that starts after the
 * session `pageToken` names and holds at most `pageSize` summaries (capped at
 * `maxListPageSize`; 0: all the rest). The token is the last session's update time and id, so
 * a page goes on where the one before stopped even when sessions were added or removed
 * meanwhile. A token this host did not give fails with `invalid_argument`.
 */
export function listPage(
  sorted: readonly JournalSummary[],
  pageSize: number,
  pageToken: string,
): ListPage {
  let start = 0;
  if (pageToken !== '') {
    const after = parseToken(pageToken);
    start = firstAfter(sorted, after);
  }
  if (pageSize === 0)
    return { sessions: start === 0 ? sorted : sorted.slice(start), nextPageToken: '' };
  const size = Math.min(pageSize, maxListPageSize);
  const sessions = sorted.slice(start, start + size);
  const last = sessions.at(-1);
  const more = start + size < sorted.length && last !== undefined;
  return { sessions, nextPageToken: more ? tokenOf(last) : '' };
}

/** Where a page stopped: the last session's update time (ms) and id. */
interface Position {
  readonly ms: number;
  readonly id: string;
}

function tokenOf(summary: JournalSummary): string {
  const position = [summary.updatedAt.getTime(), summary.header.sessionId];
  return Buffer.from(JSON.stringify(position)).toString('base64url');
}

function parseToken(token: string): Position {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== 'number' ||
    !Number.isFinite(parsed[0]) ||
    typeof parsed[1] !== 'string'
  ) {
    throw new JournalError(
      'invalid_argument',
      `page_token ${JSON.stringify(token.slice(0, 64))} is not one this host gave: pass the ` +
        'next_page_token of the answer before, or no page_token to start at the newest',
    );
  }
  return { ms: parsed[0], id: parsed[1] };
}

/** The index of the first summary `newestFirst` puts after `position`. */
function firstAfter(sorted: readonly JournalSummary[], position: Position): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >>> 1;
    const s = sorted[mid]!;
    const byTime = position.ms - s.updatedAt.getTime();
    const order = byTime !== 0 ? byTime : compareSessionIds(s.header.sessionId, position.id);
    // order > 0: `s` sorts after the position.
    if (order > 0) high = mid;
    else low = mid + 1;
  }
  return low;
}
