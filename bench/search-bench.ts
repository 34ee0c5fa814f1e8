import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { performance as hooks } from 'node:perf_hooks';
import { checkSearchQuery, type SearchPage } from '@dsh/journal';
import { createFileJournalBackend, createRipgrepSearch } from '@dsh/journal-file';
import { percentile, since, type BenchRow } from './bench-row.js';
import { benchDataDir, longJournal } from './page-bench.js';

const rare = 'xylophone-quartz';

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
 * Runs `fn` while a 10 ms timer measures how late it fires: the lag samples in ms, and the
 * time the event loop was busy (`eventLoopUtilization`: this thread only, so the work of
 * worker threads and subprocesses is not counted, and neither is the machine's load).
 */
async function withLag<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; ms: number; lag: number[]; busyMs: number }> {
  const lag: number[] = [];
  let expected = performance.now() + 10;
  const timer = setInterval(() => {
    const now = performance.now();
    lag.push(Math.max(0, now - expected));
    expected = now + 10;
  }, 10);
  const start = performance.now();
  const before = hooks.eventLoopUtilization();
  try {
    const result = await fn();
    const busyMs = hooks.eventLoopUtilization(before).active;
    return { result, ms: since(start), lag, busyMs };
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
    const runs: { ms: number; lag: number[]; busyMs: number; page: SearchPage }[] = [];
    for (let i = 0; i < (quick ? 2 : 4); i++) {
      const { result, ms, lag, busyMs } = await withLag(() => searcher.search(q, { signal }));
      runs.push({ ms, lag, busyMs, page: result });
    }
    const measured = runs.slice(1);
    const page = measured[0]!.page;
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
        value: percentile(
          measured.flatMap((r) => r.lag),
          99,
        ),
        unit: 'ms',
        note: '10 ms timer during the search',
      },
      {
        section: 'search',
        name: `${name}: host event-loop busy`,
        value: percentile(
          measured.map((r) => r.busyMs),
          50,
        ),
        unit: 'ms',
        note: "the host thread's own work per search (eventLoopUtilization), median",
      },
    );
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
