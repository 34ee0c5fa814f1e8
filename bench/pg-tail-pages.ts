import { loadavg } from 'node:os';
import type { Journal, JournalStore } from '@dsh/journal';
import type { PgJournalBackend } from '@dsh/journal-pg';
import { percentile, sample, type BenchRow } from './bench-row.js';

/** Interleaved rounds; each yields one median per (store, size) and one ratio per store. */
const rounds = 9;
/** Tail pages timed per (store, size) in a round, after a warm-up of three. */
const pagesPerRound = 15;
/** Messages per tail page. */
const pageMessages = 50;

/** Plan nodes that read a session's rows wholesale or sort them: a tail page has none. */
const unboundedNodes = new Set(['Seq Scan', 'Sort', 'Bitmap Heap Scan', 'Incremental Sort']);

/** A session of each size in each store, loaded before any timing. */
export type TailJournals = ReadonlyMap<string, ReadonlyMap<number, Journal>>;

/**
 * Tail `Page` of the smallest and the largest session of every store, timed in
 * interleaved rounds (the sizes alternate order each round) so that the load of a shared
 * machine weighs on both sizes alike: the p50 of a (store, size) is the median of its
 * round medians, and the 1M/1k ratio the median of the ratios taken within a round. The
 * plan of every statement a tail page sends at the largest size is checked with
 * EXPLAIN ANALYZE: index range reads only, no sort or scan of the session.
 */
export async function tailPageRows(
  journals: TailJournals,
  sizes: readonly [number, number],
  pg: { backend: PgJournalBackend; store: JournalStore },
): Promise<BenchRow[]> {
  const [small, large] = sizes;
  const medians = new Map<string, number[]>();
  const all = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    const order = round % 2 === 0 ? sizes : ([large, small] as const);
    for (const size of order) {
      for (const [name, bySize] of journals) {
        const journal = bySize.get(size)!;
        const times = await sample(pagesPerRound, () => journal.page(undefined, pageMessages));
        push(medians, `${name}:${size}`, percentile(times, 50));
        push(all, `${name}:${size}`, ...times);
      }
    }
  }
  const label = (size: number) => size.toLocaleString('en-US');
  const load = loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');
  const rows: BenchRow[] = [];
  for (const name of journals.keys()) {
    for (const size of sizes) {
      rows.push(
        {
          section: 'postgres',
          name: `${name}: tail page p50, ${label(size)} events`,
          value: percentile(medians.get(`${name}:${size}`)!, 50),
          unit: 'ms',
          note: `median of ${rounds} interleaved rounds of ${pagesPerRound}`,
        },
        {
          section: 'postgres',
          name: `${name}: tail page p99, ${label(size)} events`,
          value: percentile(all.get(`${name}:${size}`)!, 99),
          unit: 'ms',
        },
      );
    }
  }
  const ratios = (name: string) =>
    medians
      .get(`${name}:${large}`)!
      .map((ms, round) => ms / medians.get(`${name}:${small}`)![round]!);
  const pgRatios = ratios('postgres');
  const across = (name: string) =>
    medians.get(`${name}:${large}`)!.map((ms, round) => ms / medians.get(`file:${large}`)![round]!);
  rows.push(
    {
      section: 'postgres',
      name: `postgres: tail page p50 ratio ${label(large)} / ${label(small)} events`,
      value: percentile(pgRatios, 50),
      unit: 'x',
      note: `target <= 1.5 (one indexed range read per call); median of ${rounds} in-round ratios, range ${Math.min(...pgRatios).toFixed(2)}..${Math.max(...pgRatios).toFixed(2)}; load average ${load}`,
    },
    {
      section: 'postgres',
      name: `postgres / file tail page p50, ${label(large)} events`,
      value: percentile(across('postgres'), 50),
      unit: 'x',
      note: 'round trips to the database against reads from the page cache; median of in-round ratios',
    },
    ...(await planRows(pg, journals.get('postgres')!, sizes)),
  );
  return rows;
}

function push(map: Map<string, number[]>, key: string, ...values: number[]): void {
  const list = map.get(key) ?? [];
  list.push(...values);
  map.set(key, list);
}

/** A node of EXPLAIN's JSON output. */
interface PlanNode {
  'Node Type': string;
  'Actual Rows'?: number;
  'Actual Loops'?: number;
  Plans?: PlanNode[];
}

/**
 * EXPLAIN ANALYZE of the statements one tail page sends (captured from the pool, run again
 * with their parameters): the count of nodes that sort or scan a session at each size, and
 * the rows the scans returned at the large size against the small one.
 */
async function planRows(
  pg: { backend: PgJournalBackend; store: JournalStore },
  bySize: ReadonlyMap<number, Journal>,
  sizes: readonly [number, number],
): Promise<BenchRow[]> {
  const rowsRead = new Map<number, number>();
  const rows: BenchRow[] = [];
  for (const size of sizes) {
    const statements = await captureStatements(pg.backend, () =>
      bySize.get(size)!.page(undefined, pageMessages),
    );
    const client = await pg.backend.db.pool.connect();
    const bad: string[] = [];
    let read = 0;
    try {
      for (const { text, values } of statements) {
        const result = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (ANALYZE, FORMAT JSON) ${text}`,
          values,
        );
        for (const node of walk(result.rows[0]!['QUERY PLAN'][0].Plan)) {
          if (unboundedNodes.has(node['Node Type'])) bad.push(node['Node Type']);
          if (node['Node Type'].includes('Scan')) {
            read += (node['Actual Rows'] ?? 0) * (node['Actual Loops'] ?? 1);
          }
        }
      }
    } finally {
      client.release();
    }
    rowsRead.set(size, read);
    rows.push({
      section: 'postgres',
      name: `postgres: tail page plan, sorts and session scans, ${size.toLocaleString('en-US')} events`,
      value: bad.length,
      unit: 'nodes',
      note: `${statements.length} statements, EXPLAIN ANALYZE; target 0${bad.length > 0 ? `: ${bad.join(', ')}` : ''}`,
    });
  }
  const [small, large] = sizes;
  rows.push({
    section: 'postgres',
    name: `postgres: rows the tail page's index scans return, ${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} events`,
    value: rowsRead.get(large)! / rowsRead.get(small)!,
    unit: 'x',
    note: `${rowsRead.get(large)} against ${rowsRead.get(small)} rows (independent of load)`,
  });
  return rows;
}

function* walk(node: PlanNode): Generator<PlanNode> {
  yield node;
  for (const child of node.Plans ?? []) yield* walk(child);
}

/** The statements (text and parameters) the backend's pool runs while `work` runs. */
async function captureStatements(
  backend: PgJournalBackend,
  work: () => Promise<unknown>,
): Promise<{ text: string; values: unknown[] }[]> {
  const { pool } = backend.db;
  const query = pool.query.bind(pool);
  // An own property over the prototype's method, deleted afterwards.
  const seen: { text: string; values: unknown[] }[] = [];
  const capture = (text: unknown, values?: unknown) => {
    if (typeof text === 'string') seen.push({ text, values: (values as unknown[]) ?? [] });
    return (query as (...args: unknown[]) => unknown)(text, values);
  };
  pool.query = capture as typeof pool.query;
  try {
    await work();
  } finally {
    Reflect.deleteProperty(pool, 'query');
  }
  return seen;
}
