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
import {
  checkRipgrepPattern,
  ripgrepProgram,
  runRipgrep,
  type RipgrepMessage,
} from './run-ripgrep.js';
import {
  cursorBefore,
  searchTargets,
  type SearchableFiles,
  type Target,
} from './search-targets.js';

export type { SearchableFiles } from './search-targets.js';

/** Budgets of one search call. */
export interface RipgrepSearchOptions {
  /** Most time one call spends (default 5 s); it then answers what it found, and a cursor. */
  readonly budgetMs?: number;
  /** Most bytes of ripgrep output one call reads (default 256 MiB), the same way. */
  readonly maxOutputBytes?: number;
  /** The ripgrep program (`ripgrepProgram`, found on PATH, unless given). */
  readonly program?: string;
}

/**
 * Sessions handed to one ripgrep run. Runs read files with `read()` (`--no-mmap`): rg
 * maps a lone file into memory by default, and faulting in the pages of a 335 MB journal
 * cost 0.24 s here against 0.08 s read in buffers (page cache warm, `rg` 13).
 */
const filesPerRun = 200;
/** Event-loop time a search takes between yields, so other requests keep being served. */
const sliceMs = 4;

interface Candidate {
  readonly hit: LineHit;
  readonly sessionId: string;
  /** Byte offset of the line after the hit: where a cursor goes on. */
  readonly next: number;
}

type PathHit = SearchHit & { path: string };

/**
 * Searches journal files with ripgrep without opening them: sessions in the session
 * list's order (`searchTargets`), each from its first line or the cursor's offset, one
 * ripgrep run per batch of files with one thread so results come in that order. Every
 * matching line is checked by `matchLine` (only what a person reads counts) and mapped to
 * its seq from the line itself; tool names of output hits come from the call lines. A
 * call holds at most `limit` hits and one batch of rg output at a time, and stops at its
 * budget with a cursor.
 */
export function createRipgrepSearch(
  files: SearchableFiles,
  options: RipgrepSearchOptions = {},
): SessionSearch {
  const budgetMs = options.budgetMs ?? 5000;
  const maxOutputBytes = options.maxOutputBytes ?? 256 * 1024 * 1024;
  const program = options.program ?? ripgrepProgram;
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
      if (query.regex) await checkRipgrepPattern(['--no-config', ...patternArgs], program);
      const { targets, asOfMs } = await searchTargets(files, query);
      const page = new PageBuilder(query, { signal, deadline: deadline + 1000, program }, asOfMs);
      let timedOut = false;
      for (let batch = 0; batch < targets.length && !page.full && !timedOut; batch += filesPerRun) {
        const group = targets.slice(batch, batch + filesPerRun);
        const run = runBatch(group, patternArgs, { signal, deadline, maxOutputBytes, program });
        await page.take(run.messages, run.sources);
        timedOut = run.timedOut() && !page.full;
        if (signal.aborted) throw new JournalError('unavailable', 'the search was cancelled');
      }
      const done = !page.full && !timedOut;
      return {
        hits: await page.named(),
        next: done ? undefined : (page.position ?? cursorBefore(targets[0], asOfMs)),
        timeLimited: timedOut,
      };
    },
  };
}

/** One ripgrep run over a batch of targets; the first is fed from its offset on stdin. */
function runBatch(
  group: readonly Target[],
  patternArgs: readonly string[],
  bounds: { signal: AbortSignal; deadline: number; maxOutputBytes: number; program: string },
) {
  const first = group[0]!;
  const viaStdin = first.start > 0;
  const paths = group.map((t, i) => (i === 0 && viaStdin ? '-' : t.path));
  const sources = new Map(group.map((t, i) => [paths[i]!, t]));
  sources.set('<stdin>', first);
  const run = runRipgrep(
    [
      '--json',
      '--no-config',
      '-j1',
      '--no-mmap',
      '-a',
      '--no-ignore',
      ...patternArgs,
      '--',
      ...paths,
    ],
    { ...bounds, stdin: viaStdin ? { path: first.path, start: first.start } : undefined },
  );
  return { ...run, sources };
}

/**
 * The hits of one page as ripgrep's matches come in: candidates of the current file are
 * named (with a tool filter) and taken in order until `limit`, and `position` is always
 * where the next page goes on.
 */
class PageBuilder {
  readonly hits: PathHit[] = [];
  position: SearchCursor | undefined;
  full = false;
  private candidates: Candidate[] = [];
  private sliceStart = Date.now();

  constructor(
    private readonly query: SearchQuery,
    private readonly bounds: { signal: AbortSignal; deadline: number; program: string },
    private readonly asOfMs: number,
  ) {}

  /** Reads one run's messages (each naming its source) until the run ends or the page is full. */
  async take(
    messages: AsyncGenerator<RipgrepMessage>,
    sources: ReadonlyMap<string, Target>,
  ): Promise<void> {
    let current: Target | undefined;
    for await (const message of messages) {
      const target = sources.get(message.path);
      if (target === undefined) continue;
      current = target;
      if (message.type === 'end') {
        await this.flush(target);
        if (!this.full) this.at(target, -1);
      } else {
        const base = message.path === '<stdin>' ? target.start : 0;
        const next = base + message.offset + message.line.length;
        const hit = matchLine(message.line, message.ranges, this.query);
        if (hit !== undefined) this.candidates.push({ hit, sessionId: target.sessionId, next });
        this.at(target, next);
        if (this.hits.length + this.candidates.length >= this.query.limit) await this.flush(target);
      }
      if (this.full) break;
      if (Date.now() - this.sliceStart > sliceMs) {
        await new Promise((resolve) => setImmediate(resolve));
        this.sliceStart = Date.now();
      }
    }
    if (this.candidates.length > 0 && current !== undefined) await this.flush(current);
  }

  /** The page's hits with the tool names of output hits (one ripgrep run for the page). */
  async named(): Promise<SearchHit[]> {
    const names = await resolveToolNames(unnamed(this.hits), this.bounds);
    return this.hits.map(({ path, ...hit }) => ({
      ...hit,
      toolName: hit.toolName || names.get(path)?.get(hit.callId) || '',
    }));
  }

  private at(target: Target, offset: number): void {
    const { sessionId, updatedAtMs } = target;
    this.position = { sessionId, updatedAtMs, offset, asOfMs: this.asOfMs };
  }

  /**
   * Takes the candidates of `target` in order. With a tool filter, names decide which
   * count, so they are named first; otherwise the page is named once at the end.
   */
  private async flush(target: Target): Promise<void> {
    const { query } = this;
    const { path } = target;
    const names =
      query.toolNames.size > 0
        ? await resolveToolNames(
            unnamed(this.candidates.map((c) => ({ ...c.hit, path }))),
            this.bounds,
          )
        : undefined;
    for (const candidate of this.candidates) {
      const toolName = candidate.hit.toolName || names?.get(path)?.get(candidate.hit.callId) || '';
      if (query.toolNames.size > 0 && !query.toolNames.has(toolName)) continue;
      this.hits.push({ ...candidate.hit, toolName, sessionId: candidate.sessionId, path });
      if (this.hits.length >= query.limit) {
        this.full = true;
        this.at(target, candidate.next);
        break;
      }
    }
    this.candidates = [];
  }
}

/** The call ids whose tool name a list of hits lacks, by journal file. */
function unnamed(
  list: readonly Pick<PathHit, 'toolName' | 'callId' | 'path'>[],
): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>();
  for (const { toolName, callId, path } of list) {
    if (toolName !== '' || callId === '') continue;
    wanted.set(path, (wanted.get(path) ?? new Set()).add(callId));
  }
  return wanted;
}
