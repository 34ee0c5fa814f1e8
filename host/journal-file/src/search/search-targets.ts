import { compareSessionIds, JournalError, type SearchCursor, type SearchQuery } from '@dsh/journal';
import { lastTimeAsOf } from './last-time-as-of.js';

/** Where the ripgrep search finds sessions: the file backend's files and paths. */
export interface SearchableFiles {
  /** Every journal file, with the time of its last event (the session list's order). */
  journalFiles(): Promise<{ sessionId: string; path: string; updatedAtMs: number }[]>;
  /** The journal file of a session, or undefined when there is none. */
  journalPath(sessionId: string): Promise<string | undefined>;
}

/** One session a search goes through, from `start` (a byte offset) to its end. */
export interface Target {
  readonly sessionId: string;
  readonly updatedAtMs: number;
  readonly path: string;
  readonly start: number;
}

/** The sessions a page searches, in order, and the time the order is taken at. */
export interface Targets {
  readonly targets: Target[];
  /** The `asOfMs` of every cursor of this search. */
  readonly asOfMs: number;
}

/**
 * The sessions a query searches, in order, each with its path and start offset. Across
 * sessions the order is the session list's (last event time, newest first, then id) as
 * of the search's first page: a session appended to since then is placed by its last
 * event before that time (read back from its end), so a cursor neither repeats nor skips
 * it; a session created since is left out.
 */
export async function searchTargets(source: SearchableFiles, query: SearchQuery): Promise<Targets> {
  const { cursor } = query;
  if (query.sessionId !== undefined) {
    const path = await source.journalPath(query.sessionId);
    if (path === undefined) {
      throw new JournalError('not_found', `session ${query.sessionId} does not exist`);
    }
    if (cursor !== undefined && cursor.sessionId !== query.sessionId) {
      throw new JournalError(
        'invalid_argument',
        'the search cursor belongs to another session: start over without it',
      );
    }
    const asOfMs = cursor?.asOfMs ?? Date.now();
    if (cursor !== undefined && cursor.offset < 0) return { targets: [], asOfMs };
    const start = cursor?.offset ?? 0;
    return { targets: [{ sessionId: query.sessionId, updatedAtMs: 0, path, start }], asOfMs };
  }
  const listed = await source.journalFiles();
  const asOfMs = cursor?.asOfMs ?? Date.now();
  const files: Target[] = [];
  for (const file of listed) {
    const then =
      cursor !== undefined && file.updatedAtMs > asOfMs && file.sessionId !== cursor.sessionId
        ? await lastTimeAsOf(file.path, asOfMs)
        : file.updatedAtMs;
    if (then === 'none') continue;
    // Too much appended to read back: it stays at the top, before the cursor.
    const updatedAtMs = then === 'unknown' ? file.updatedAtMs : then;
    files.push({ sessionId: file.sessionId, path: file.path, updatedAtMs, start: 0 });
  }
  files.sort(newestFirst);
  if (cursor === undefined) return { targets: files, asOfMs };
  const resumed = files.find((f) => f.sessionId === cursor.sessionId);
  const targets: Target[] =
    cursor.offset >= 0 && resumed !== undefined
      ? [{ ...resumed, updatedAtMs: cursor.updatedAtMs, start: cursor.offset }]
      : [];
  for (const file of files) {
    if (file.sessionId !== cursor.sessionId && newestFirst(cursor, file) < 0) targets.push(file);
  }
  return { targets, asOfMs };
}

/** The session list's order: the last event time, newest first, then the id. */
function newestFirst(
  a: { sessionId: string; updatedAtMs: number },
  b: { sessionId: string; updatedAtMs: number },
): number {
  return b.updatedAtMs - a.updatedAtMs || compareSessionIds(a.sessionId, b.sessionId);
}

/** The cursor at the start of a page's first target, for a page that found nothing. */
export function cursorBefore(target: Target | undefined, asOfMs: number): SearchCursor | undefined {
  return target === undefined
    ? undefined
    : {
        sessionId: target.sessionId,
        updatedAtMs: target.updatedAtMs,
        offset: target.start,
        asOfMs,
      };
}
