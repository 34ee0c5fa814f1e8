import { existsSync, mkdirSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance as hooks } from 'node:perf_hooks';
import { checkSearchQuery, type SearchPage } from '@dsh/journal';
import { createFileJournalBackend, createRipgrepSearch } from '@dsh/journal-file';
import { percentile, since, type BenchRow } from './bench-row.js';
import { benchDataDir, longJournal } from './page-bench.js';

const rare = 'xylophone-quartz';
/** Timer ticks (10 ms) a case's lag p99 is taken over, at least. */
const minTicks = 300;
/** Measured searches per case: at least, and at most (a slow search stops there). */
const minRuns = 3;
const maxRuns = 100;

function format(ms: number): string {
  return ms.toFixed(1);
}

/**
 * A corpus of `sessions` copies of one generated ~1 MB session (each with its own id in
 * the header), three of them ending with a prompt that names the rare term. Written once
 * and kept beside the other generated journals.
 */
async function corpus(sessions: number): Promise<string> {
  const dir = join(benchDataDir, `search-corpus-${sessions}`);
  const last = join(dir, `corpus-${String(sessions - 1).padStart(4, '0')}.jsonl`);
  if (existsSync(last)) return dir;
  mkdirSync(dir, { recursive: true });
  const source = readFileSync(await longJournal(3_000), 'utf8');
  const newline = source.indexOf('\n');
  const header = JSON.parse(source.slice(0, newline)) as Record<string, unknown>;
  const body = source.slice(newline + 1);
  const marked = new Set([Math.floor(sessions / 100), Math.floor(sessions / 2), sessions - 10]);
  for (let i = 0; i < sessions; i++) {
    const id = `corpus-${String(i).padStart(4, '0')}`;
    const extra = marked.has(i)
      ? `${JSON.stringify({ seq: 3_000, time: '2026-01-02T00:00:00.000Z', type: 'user/message', content: [{ text: { text: `where did the ${rare} go?` } }], source: 'user' })}\n`
      : '';
    writeFileSync(
      join(dir, `${id}.jsonl`),
      `${JSON.stringify({ ...header, sessionId: id })}\n${body}${extra}`,
    );
  }
  return dir;
}

/**
 * A reader of this thread's CPU time in ms (Linux `/proc/thread-self/schedstat`: time on
 * a core, never time waiting for one), or undefined where there is none.
 */
function threadCpu(): (() => number) | undefined {
  let fd: number;
  try {
    fd = openSync('/proc/thread-self/schedstat', 'r');
  } catch {
    return undefined;
  }
  const buffer = Buffer.alloc(96);
  return () => {
    const read = readSync(fd, buffer, 0, buffer.length, 0);
    return Number(buffer.toString('latin1', 0, read).split(' ')[0]) / 1e6;
  };
}
const cpuNow = threadCpu();

/** What a 10 ms timer saw during one search. */
interface Lag {
  /** How late each tick fired, ms. */
  readonly lag: number[];
  /** This thread's CPU time between consecutive ticks, ms: what the loop itself ran. */
  readonly cpu: number[];
}

/**
 * Runs `fn` while a 10 ms timer measures how late it fires (the lag samples in ms) and
 * how much CPU this thread used between ticks (a late tick with little CPU waited for a
 * core, not for the host's work), with the time the event loop was busy
 * (`eventLoopUtilization`: this thread only, so the work of the helper process and rg is
 * not counted, and neither is the machine's load).
 */
async function withLag<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; ms: number; busyMs: number } & Lag> {
  const lag: number[] = [];
  const cpu: number[] = [];
  let expected = performance.now() + 10;
  let cpuBefore = cpuNow?.() ?? 0;
  const timer = setInterval(() => {
    const now = performance.now();
    lag.push(Math.max(0, now - expected));
    expected = now + 10;
    if (cpuNow !== undefined) {
      const cpuAt = cpuNow();
      cpu.push(cpuAt - cpuBefore);
      cpuBefore = cpuAt;
    }
  }, 10);
  const start = performance.now();
  const before = hooks.eventLoopUtilization();
  try {
    const result = await fn();
    const busyMs = hooks.eventLoopUtilization(before).active;
    return { result, ms: since(start), lag, cpu, busyMs };
  } finally {
    clearInterval(timer);
  }
}

/** The one-minute load average, which the lag figures depend on more than on the search. */
function load(): string {
  return loadavg()[0]!.toFixed(1);
}

function query(text: string, sessionId = '') {
  return checkSearchQuery({
    query: text,
    caseSensitive: false,
    regex: false,
    sessionId,
    kinds: [],
    toolNames: [],
    limit: 50,
    cursor: '',
  });
}

/**
 * Search latency (limit 50) for a rare and a common term across a corpus of sessions and
 * within one long session, through the file backend's ripgrep search, with the host's
 * event-loop lag (a 10 ms timer) while each runs.
 */
export async function searchBench(quick: boolean): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const sessions = quick ? 100 : 1_000;
  const dir = await corpus(sessions);
  const corpusBackend = await createFileJournalBackend({ dataDir: dir });
  const longSize = quick ? 100_000 : 1_000_000;
  await longJournal(longSize);
  const longBackend = await createFileJournalBackend({ dataDir: benchDataDir });
  // The catalogs read every new or grown journal's facts once, on the same event loop:
  // measured while they run, a search would count their work as its own.
  await Promise.all([corpusBackend.catalog.settled(), longBackend.catalog.settled()]);
  const signal = new AbortController().signal;
  const cases: [string, ReturnType<typeof createRipgrepSearch>, ReturnType<typeof query>][] = [
    [`rare term, ${sessions} sessions`, createRipgrepSearch(corpusBackend), query(rare)],
    [`common term, ${sessions} sessions`, createRipgrepSearch(corpusBackend), query('config')],
    [
      `rare term, one ${longSize.toLocaleString('en-US')}-event session`,
      createRipgrepSearch(longBackend),
      query(`(request ${Math.floor(longSize / 40)}).`, `long-${longSize}`),
    ],
    [
      `common term, one ${longSize.toLocaleString('en-US')}-event session`,
      createRipgrepSearch(longBackend),
      query('config', `long-${longSize}`),
    ],
  ];
  const bytes = Math.round((sessions * readFileSync(join(dir, 'corpus-0000.jsonl')).length) / 1e6);
  for (const [name, searcher, q] of cases) {
    const runs: { ms: number; lag: number[]; cpu: number[]; busyMs: number; page: SearchPage }[] =
      [];
    // A p99 needs ticks: searches are repeated until the timer ticked `minTicks` times (a
    // 90 ms search ticks 9 times, and the p99 of a few dozen ticks is their maximum).
    const enough = (): boolean => {
      const measured = runs.slice(1);
      const ticks = measured.reduce((sum, r) => sum + r.lag.length, 0);
      return measured.length >= maxRuns || (measured.length >= minRuns && ticks >= minTicks);
    };
    while (!enough()) {
      const { result, ...measured } = await withLag(() => searcher.search(q, { signal }));
      runs.push({ ...measured, page: result });
    }
    const measured = runs.slice(1);
    const page = measured[0]!.page;
    const ticks = measured.flatMap((r) => r.lag);
    const cpu = measured.flatMap((r) => r.cpu);
    const note = `${page.hits.length} hits${page.timeLimited ? ', time-limited' : ''}${name.includes('sessions') ? `, ~${bytes} MB` : ''}; median of ${measured.length} after a warm-up; load average ${load()} on a machine shared with other jobs`;
    rows.push(
      {
        section: 'search',
        name: `${name}: first page`,
        value: percentile(
          measured.map((r) => r.ms),
          50,
        ),
        unit: 'ms',
        note,
      },
      {
        section: 'search',
        name: `${name}: event-loop lag p99`,
        value: percentile(ticks, 99),
        unit: 'ms',
        note: `10 ms timer during the searches (${ticks.length} ticks, max ${format(Math.max(...ticks))} ms)`,
      },
    );
    if (cpu.length > 0) {
      rows.push({
        section: 'search',
        name: `${name}: host-thread CPU between ticks p99`,
        value: percentile(cpu, 99),
        unit: 'ms',
        note: `the host thread's time on a core between two ticks of the timer (max ${format(Math.max(...cpu))} ms): the lag its own work causes, without the waits for a core`,
      });
    }
    rows.push({
      section: 'search',
      name: `${name}: host event-loop busy`,
      value: percentile(
        measured.map((r) => r.busyMs),
        50,
      ),
      unit: 'ms',
      note: "the host thread's own work per search (eventLoopUtilization), median",
    });
  }
  // The same timer with no search running: what the machine's load alone costs.
  const idle = await withLag(() => new Promise((resolve) => setTimeout(resolve, 3_000)));
  rows.push({
    section: 'search',
    name: 'event-loop lag p99 with no search (baseline)',
    value: percentile(idle.lag, 99),
    unit: 'ms',
    note: `10 ms timer for 3 s while nothing runs: the load of the shared machine (load average ${load()})`,
  });
  await corpusBackend.close();
  await longBackend.close();
  return rows;
}
