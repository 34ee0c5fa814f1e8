import {
  JournalError,
  lineHeadBytes,
  matchLine,
  parseLineHead,
  searchPatterns,
  type LineHit,
  type SearchCursor,
  type SearchHit,
  type SearchKindName,
  type SearchQuery,
  type SessionSearch,
} from '@dsh/journal';
import type { PgDatabase } from './pg-database.js';
import { pgError } from './pg-error.js';

/** Budgets of one search call. */
export interface PgSearchOptions {
  /** Most time one call spends (default 5 s); it then answers what it found, and a cursor. */
  readonly budgetMs?: number;
  /** Most time one statement may run (default 2 s): `statement_timeout`, so no regex holds the database. */
  readonly statementMs?: number;
}

/** The event types whose fields a person reads, by search kind (`readableKind`). */
const typesOfKind: Record<SearchKindName, readonly string[]> = {
  prompt: ['user/message', 'steering/message'],
  assistant: ['assistant/message'],
  tool_arguments: ['tool/call', 'tool/code-dispatch-start'],
  tool_output: ['tool/result', 'tool/code-dispatch', 'tool/output'],
};

/** Matching rows one statement reads; `matchLine` may refuse some (a match in an id). */
const rowsPerRead = 200;
/** Match ranges read per line: enough for a snippet's marks. */
const rangesPerLine = 16;
/** Rows read back from a session's end for its last-event time as of a search's start. */
const maxBackRows = 2000;

interface Target {
  readonly sessionId: string;
  readonly updatedAtMs: number;
  /** The next seq to search. */
  readonly start: number;
}

/**
 * Searches the `events` table with PostgreSQL's regular expressions: a plain query as its
 * JSON-escaped forms (`searchPatterns`) quoted literally, a regex as it is (PostgreSQL's
 * ARE dialect, close to ripgrep's for common patterns). Sessions go in the session list's
 * order as of the first page (as the file search does), each from the cursor's seq, only
 * rows of the event types the kinds read; every matching line is checked by `matchLine`.
 * Every statement runs under `statement_timeout`, and a call stops at its budget with a
 * cursor (`timeLimited`), so no pattern can hold the host or the database.
 */
export function createPgSearch(db: PgDatabase, options: PgSearchOptions = {}): SessionSearch {
  const budgetMs = options.budgetMs ?? 5000;
  const statementMs = options.statementMs ?? 2000;
  return {
    async search(query, { signal }) {
      const deadline = Date.now() + budgetMs;
      const pattern = sqlPattern(query);
      const flags = query.caseSensitive ? 'c' : 'i';
      await checkPattern(db, pattern, flags);
      const asOfMs = query.cursor?.asOfMs ?? Date.now();
      const targets = await searchTargets(db, query, asOfMs);
      const types = [...query.kinds].flatMap((k) => typesOfKind[k]);
      const hits: SearchHit[] = [];
      let position: SearchCursor | undefined = cursorAt(targets[0], asOfMs);
      let timeLimited = false;
      search: for (const target of targets) {
        let from = target.start;
        for (;;) {
          if (signal.aborted) throw new JournalError('unavailable', 'the search was cancelled');
          const left = deadline - Date.now();
          const rows =
            left <= 0
              ? undefined
              : await readMatches(db, target.sessionId, from, {
                  pattern,
                  flags,
                  types,
                  timeoutMs: Math.max(50, Math.min(statementMs, left)),
                });
          if (rows === undefined) {
            timeLimited = true;
            position = cursorAt({ ...target, start: from }, asOfMs);
            break search;
          }
          for (const row of rows) {
            from = row.seq + 1;
            const hit = await named(db, target.sessionId, lineHit(row, query));
            if (hit === undefined) continue;
            if (query.toolNames.size > 0 && !query.toolNames.has(hit.toolName)) continue;
            hits.push({ ...hit, sessionId: target.sessionId });
            if (hits.length >= query.limit) {
              position = cursorAt({ ...target, start: from }, asOfMs);
              return { hits, next: position, timeLimited: false };
            }
          }
          if (rows.length < rowsPerRead) break;
        }
        position = {
          sessionId: target.sessionId,
          updatedAtMs: target.updatedAtMs,
          offset: -1,
          asOfMs,
        };
      }
      return { hits, next: timeLimited ? position : undefined, timeLimited };
    },
  };
}

/** The query as one PostgreSQL regular expression. */
function sqlPattern(query: SearchQuery): string {
  if (query.regex) return query.text;
  return searchPatterns(query)
    .map((p) => `(?:${p.replace(/[^\p{L}\p{N}\s_]/gu, '\\$&')})`)
    .join('|');
}

/** Refuses a pattern PostgreSQL cannot compile, as `invalid_argument` naming the fix. */
async function checkPattern(db: PgDatabase, pattern: string, flags: string): Promise<void> {
  try {
    await db.pool.query("SELECT regexp_like('', $1, $2)", [pattern, flags]);
  } catch (error) {
    const e = error as { code?: string; message?: string };
    if (e.code === '2201B') {
      const message = e.message ?? '';
      throw new JournalError(
        'invalid_argument',
        /too complex|repetition count|too many/i.test(message)
          ? `the search regex exceeds the size limit of PostgreSQL's regex engine (${message}): simplify it`
          : `the search regex does not compile (${message}): fix it, or search plain text`,
      );
    }
    throw pgError(error, { action: 'cannot search', location: db.location });
  }
}

interface MatchRow {
  readonly seq: number;
  readonly line: string;
  /** 1-based code point positions: start, end after the match; pairs. */
  readonly ranges: number[];
}

/** The next rows of a session at or after `from` whose line matches; undefined when time ran out. */
async function readMatches(
  db: PgDatabase,
  sessionId: string,
  from: number,
  match: { pattern: string; flags: string; types: readonly string[]; timeoutMs: number },
): Promise<MatchRow[] | undefined> {
  try {
    return await db.transaction(
      `session ${sessionId}: cannot search its events`,
      async (client) => {
        await client.query(`SET LOCAL statement_timeout = ${Math.round(match.timeoutMs)}`);
        const { rows } = await client.query<MatchRow>(
          `SELECT e.seq, e.line, ARRAY(
           SELECT x FROM generate_series(1, $6) n,
             LATERAL (SELECT regexp_instr(e.line, $4, 1, n, 0, $5) AS s,
                             regexp_instr(e.line, $4, 1, n, 1, $5) AS t) r,
             LATERAL unnest(ARRAY[r.s, r.t]) x
           WHERE r.s > 0) AS ranges
         FROM events e
         WHERE e.session_id = $1 AND e.seq >= $2 AND e.type = ANY($3::text[])
           AND regexp_like(e.line, $4, $5)
         ORDER BY e.seq LIMIT $7`,
          [sessionId, from, match.types, match.pattern, match.flags, rangesPerLine, rowsPerRead],
        );
        return rows;
      },
    );
  } catch (error) {
    // 57014: the statement ran out of its time (a costly pattern on a long session).
    if (
      error instanceof JournalError &&
      /statement timeout|canceling statement/.test(error.message)
    ) {
      return undefined;
    }
    throw error;
  }
}

/** A matching row as `matchLine` sees it: the line's UTF-8 bytes and byte ranges. */
function lineHit(row: MatchRow, query: SearchQuery): LineHit | undefined {
  const bytes = Buffer.from(row.line, 'utf8');
  const offsets = codePointOffsets(row.line);
  const ranges: { start: number; end: number }[] = [];
  for (let i = 0; i + 1 < row.ranges.length; i += 2) {
    const start = offsets[row.ranges[i]! - 1];
    const end = offsets[row.ranges[i + 1]! - 1];
    if (start !== undefined && end !== undefined && end > start) ranges.push({ start, end });
  }
  return matchLine(bytes, ranges, query);
}

/** The UTF-8 byte offset of each code point of `text`, and of its end. */
function codePointOffsets(text: string): number[] {
  const offsets: number[] = [];
  let at = 0;
  for (const char of text) {
    offsets.push(at);
    const code = char.codePointAt(0)!;
    at += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  offsets.push(at);
  return offsets;
}

/** A hit with the tool name of its call, read from the call's own event when it has none. */
async function named(
  db: PgDatabase,
  sessionId: string,
  hit: LineHit | undefined,
): Promise<LineHit | undefined> {
  if (hit === undefined || hit.toolName !== '' || hit.callId === '') return hit;
  const [row] = await db.query<{ line: string }>(
    `session ${sessionId}: cannot read the call of a search hit`,
    `SELECT line FROM events WHERE session_id = $1 AND seq < $2
       AND type IN ('tool/call', 'tool/code-dispatch-start') AND strpos(line, $3) > 0
     ORDER BY seq DESC LIMIT 1`,
    [sessionId, hit.seq, `"callId":${JSON.stringify(hit.callId)}`],
  );
  if (row === undefined) return hit;
  const name = (JSON.parse(row.line) as { name?: unknown }).name;
  return typeof name === 'string' ? { ...hit, toolName: name } : hit;
}

function cursorAt(target: Target | undefined, asOfMs: number): SearchCursor | undefined {
  return target === undefined
    ? undefined
    : {
        sessionId: target.sessionId,
        updatedAtMs: target.updatedAtMs,
        offset: target.start,
        asOfMs,
      };
}

/**
 * The sessions a query searches, in the session list's order as of `asOfMs` (the last
 * event time, newest first, then the id): a session appended to since is placed by its
 * last event before then, one created since is left out; with a cursor, the sessions
 * from its place on.
 */
async function searchTargets(
  db: PgDatabase,
  query: SearchQuery,
  asOfMs: number,
): Promise<Target[]> {
  const { cursor } = query;
  if (query.sessionId !== undefined) {
    const [row] = await db.query<{ session_id: string }>(
      `session ${query.sessionId}: cannot search it`,
      'SELECT session_id FROM sessions WHERE session_id = $1',
      [query.sessionId],
    );
    if (row === undefined) {
      throw new JournalError('not_found', `session ${query.sessionId} does not exist`);
    }
    if (cursor !== undefined && cursor.sessionId !== query.sessionId) {
      throw new JournalError(
        'invalid_argument',
        'the search cursor belongs to another session: start over without it',
      );
    }
    if (cursor !== undefined && cursor.offset < 0) return [];
    return [{ sessionId: query.sessionId, updatedAtMs: 0, start: cursor?.offset ?? 0 }];
  }
  const rows = await db.query<{ session_id: string; updated_ms: number }>(
    'cannot list the sessions to search',
    'SELECT session_id, updated_ms FROM sessions',
  );
  const sessions: Target[] = [];
  for (const row of rows) {
    let updatedAtMs = row.updated_ms;
    if (cursor !== undefined && updatedAtMs > asOfMs && row.session_id !== cursor.sessionId) {
      const then = await lastTimeAsOf(db, row.session_id, asOfMs);
      if (then === 'none') continue;
      if (then !== 'unknown') updatedAtMs = then;
    }
    sessions.push({ sessionId: row.session_id, updatedAtMs, start: 0 });
  }
  sessions.sort(newestFirst);
  if (cursor === undefined) return sessions;
  const resumed = sessions.find((s) => s.sessionId === cursor.sessionId);
  const targets: Target[] =
    cursor.offset >= 0 && resumed !== undefined
      ? [{ ...resumed, updatedAtMs: cursor.updatedAtMs, start: cursor.offset }]
      : [];
  for (const s of sessions) {
    if (s.sessionId !== cursor.sessionId && newestFirst(cursor, s) < 0) targets.push(s);
  }
  return targets;
}

/** The time of a session's last event at or before `asOfMs`, read back from its end. */
async function lastTimeAsOf(
  db: PgDatabase,
  sessionId: string,
  asOfMs: number,
): Promise<number | 'none' | 'unknown'> {
  const rows = await db.query<{ head: string }>(
    `session ${sessionId}: cannot read its last events`,
    `SELECT left(line, $3) AS head FROM events WHERE session_id = $1 ORDER BY seq DESC LIMIT $2`,
    [sessionId, maxBackRows, lineHeadBytes],
  );
  for (const row of rows) {
    const time = parseLineHead(row.head)?.time.getTime();
    if (time !== undefined && time <= asOfMs) return time;
  }
  return rows.length < maxBackRows ? 'none' : 'unknown';
}

function newestFirst(
  a: { sessionId: string; updatedAtMs: number },
  b: { sessionId: string; updatedAtMs: number },
): number {
  return b.updatedAtMs - a.updatedAtMs || a.sessionId.localeCompare(b.sessionId);
}
