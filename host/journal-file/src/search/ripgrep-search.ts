import {
  JournalError,
  matchLine,
  searchPatterns,
  type LineHit,
  type SearchCursor,
  type SearchHit,
  type SearchQuery,
  type SessionSearch,
} from '@dsh/journal';
import { resolveToolNames } from './resolve-tool-names.js';
import { checkRipgrepPattern, runRipgrep } from './run-ripgrep.js';

/** Where the ripgrep search finds sessions: the file backend's files and paths. */
export interface SearchableFiles {
  /** Every journal file, with its modification time (the last append). */
  journalFiles(): Promise<{ sessionId: string; path: string; mtimeMs: number }[]>;
  /** The journal file of a session, or undefined when there is none. */
  journalPath(sessionId: string): Promise<string | undefined>;
}

/** Budgets of one search call. */
export interface RipgrepSearchOptions {
  /** Most time one call spends (default 5 s); it then answers what it found, and a cursor. */
  readonly budgetMs?: number;
  /** Most bytes of ripgrep output one call reads (default 256 MiB), the same way. */
  readonly maxOutputBytes?: number;
}

/** Sessions handed to one ripgrep run. */
const filesPerRun = 200;
/** Event-loop time a search takes between yields, so other requests keep being served. */
const sliceMs = 4;

interface Candidate {
  readonly hit: LineHit;
  readonly sessionId: string;
  /** Byte offset of the line after the hit: where a cursor goes on. */
  readonly next: number;
}

interface Target {
  readonly sessionId: string;
  readonly updatedAtMs: number;
  readonly path: string;
  readonly start: number;
}

/**
 * Searches journal files with ripgrep without opening them: sessions newest first (by
 * the journal file's modification time: its last append, read without opening it), each from its first line or the cursor's offset, one ripgrep run per
 * batch of files with one thread so results come in that order. Every matching line is
 * checked by `matchLine` (only what a person reads counts) and mapped to its seq from the
 * line itself; tool names of output hits come from the call lines. A call holds at most
 * `limit` hits and one line at a time, and stops at its budget with a cursor.
 */
export function createRipgrepSearch(
  files: SearchableFiles,
  options: RipgrepSearchOptions = {},
): SessionSearch {
  const budgetMs = options.budgetMs ?? 5000;
  const maxOutputBytes = options.maxOutputBytes ?? 256 * 1024 * 1024;
  return {
    async search(query, { signal }) {
      const deadline = Date.now() + budgetMs;
      const patternArgs = [
        query.caseSensitive ? '--case-sensitive' : '--ignore-case',
        // Bounds what a pattern may compile to, so no pattern costs more than a scan.
        '--regex-size-limit',
        '2M',
        ...(query.regex ? [] : ['--fixed-strings']),
        ...searchPatterns(query).flatMap((p) => ['-e', p]),
      ];
      if (query.regex) await checkRipgrepPattern(['--no-config', ...patternArgs]);
      const targets = await searchTargets(files, query);
      const hits: (SearchHit & { path: string })[] = [];
      let candidates: Candidate[] = [];
      let position: SearchCursor | undefined;
      let full = false;
      let sliceStart = Date.now();
      let timedOut = false;

      const unnamed = (
        list: readonly { hit: Pick<LineHit, 'toolName' | 'callId'>; path: string }[],
      ) => {
        const wanted = new Map<string, Set<string>>();
        for (const { hit, path } of list) {
          if (hit.toolName !== '' || hit.callId === '') continue;
          wanted.set(path, (wanted.get(path) ?? new Set()).add(hit.callId));
        }
        return wanted;
      };
      const bounds = { signal, deadline: deadline + 1000 };
      // With a tool filter, names decide which candidates count, so each batch is named
      // before it is taken; otherwise the page is named once at the end (one subprocess).
      const flush = async (path: string): Promise<void> => {
        const names =
          query.toolNames.size > 0
            ? await resolveToolNames(unnamed(candidates.map((c) => ({ ...c, path }))), bounds)
            : undefined;
        for (const candidate of candidates) {
          const toolName =
            candidate.hit.toolName || names?.get(path)?.get(candidate.hit.callId) || '';
          if (query.toolNames.size > 0 && !query.toolNames.has(toolName)) continue;
          hits.push({ ...candidate.hit, toolName, sessionId: candidate.sessionId, path });
          if (hits.length >= query.limit) {
            full = true;
            position = {
              sessionId: candidate.sessionId,
              updatedAtMs: updatedAt(candidate.sessionId),
              offset: candidate.next,
            };
            break;
          }
        }
        candidates = [];
      };
      const byId = new Map(targets.map((t) => [t.sessionId, t]));
      const updatedAt = (id: string): number => byId.get(id)?.updatedAtMs ?? 0;

      for (let batch = 0; batch < targets.length && !full && !timedOut; batch += filesPerRun) {
        const group = targets.slice(batch, batch + filesPerRun);
        const first = group[0]!;
        const viaStdin = first.start > 0;
        const paths = group.map((t, i) => (i === 0 && viaStdin ? '-' : t.path));
        const bySource = new Map(group.map((t, i) => [paths[i]!, t]));
        bySource.set('<stdin>', first);
        const run = runRipgrep(
          ['--json', '--no-config', '-j1', '-a', '--no-ignore', ...patternArgs, '--', ...paths],
          {
            stdin: viaStdin ? { path: first.path, start: first.start } : undefined,
            signal,
            deadline,
            maxOutputBytes,
          },
        );
        for await (const message of run.messages) {
          const target = bySource.get(message.path);
          if (target === undefined) continue;
          const base = message.path === '<stdin>' ? target.start : 0;
          if (message.type === 'end') {
            await flush(target.path);
            if (!full) {
              position = {
                sessionId: target.sessionId,
                updatedAtMs: target.updatedAtMs,
                offset: -1,
              };
            }
          } else {
            const next = base + message.offset + message.line.length;
            const hit = matchLine(message.line, message.ranges, query);
            if (hit !== undefined) candidates.push({ hit, sessionId: target.sessionId, next });
            position = {
              sessionId: target.sessionId,
              updatedAtMs: target.updatedAtMs,
              offset: next,
            };
            if (hits.length + candidates.length >= query.limit) await flush(target.path);
          }
          if (full) break;
          if (Date.now() - sliceStart > sliceMs) {
            await new Promise((resolve) => setImmediate(resolve));
            sliceStart = Date.now();
          }
        }
        if (candidates.length > 0 && position !== undefined) {
          await flush(byId.get(position.sessionId)!.path);
        }
        timedOut = run.timedOut() && !full;
        if (signal.aborted) throw new JournalError('unavailable', 'the search was cancelled');
      }
      const done = !full && !timedOut;
      const names = await resolveToolNames(
        unnamed(hits.map((hit) => ({ hit, path: hit.path }))),
        bounds,
      );
      return {
        hits: hits.map(({ path, ...hit }) => ({
          ...hit,
          toolName: hit.toolName || names.get(path)?.get(hit.callId) || '',
        })),
        next: done ? undefined : (position ?? cursorBefore(targets[0])),
        timeLimited: timedOut,
      };
    },
  };
}

/** The sessions a query searches, in order, each with its path and start offset. */
async function searchTargets(source: SearchableFiles, query: SearchQuery): Promise<Target[]> {
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
    if (cursor !== undefined && cursor.offset < 0) return [];
    return [{ sessionId: query.sessionId, updatedAtMs: 0, path, start: cursor?.offset ?? 0 }];
  }
  const files = (await source.journalFiles())
    .map((f) => ({ sessionId: f.sessionId, updatedAtMs: f.mtimeMs, path: f.path }))
    .sort(newestFirst);
  const order =
    cursor === undefined
      ? files
      : files.filter((f) => f.sessionId !== cursor.sessionId && newestFirst(cursor, f) < 0);
  const resumed = files.find((f) => f.sessionId === cursor?.sessionId);
  const targets: Target[] =
    cursor !== undefined && cursor.offset >= 0 && resumed !== undefined
      ? [{ ...resumed, updatedAtMs: cursor.updatedAtMs, start: cursor.offset }]
      : [];
  for (const file of order) targets.push({ ...file, start: 0 });
  return targets;
}

function newestFirst(
  a: { sessionId: string; updatedAtMs: number },
  b: { sessionId: string; updatedAtMs: number },
): number {
  return (
    b.updatedAtMs - a.updatedAtMs ||
    (a.sessionId < b.sessionId ? -1 : a.sessionId > b.sessionId ? 1 : 0)
  );
}

function cursorBefore(target: Target | undefined): SearchCursor | undefined {
  return target === undefined
    ? undefined
    : { sessionId: target.sessionId, updatedAtMs: target.updatedAtMs, offset: target.start };
}
