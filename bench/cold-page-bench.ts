import { copyFile, mkdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';
import { percentile, since, type BenchRow } from './bench-row.js';
import { startHost } from './catalog-bench.js';
import { benchDataDir, longJournal } from './page-bench.js';

const section = 'cold';

/** The data dir the cold hosts serve: copies of the cached long journals (a host appends). */
const coldDir = join(benchDataDir, 'cold');

/** How long a settled measurement waits after the first ListSessions. */
const settledMs = 3000;

/**
 * The first tail `Page` through the real RPC on a fresh `dsh serve` process, per session
 * size, after one `ListSessions` on that process: once with no index beside the journal
 * (the page is read backwards while the host rebuilds the index; also timed: until the
 * baselines come), then `runs` times with the persisted index, each on a new
 * process, right after that call and `settledMs` after it (once the host's own start-up
 * work is done); and the ratio of the largest to the smallest, which the target bounds.
 */
export async function coldPageBench(quick: boolean): Promise<BenchRow[]> {
  const sizes = quick ? [1_000, 100_000] : [1_000, 1_000_000];
  const runs = quick ? 3 : 7;
  await mkdir(coldDir, { recursive: true });
  const rows: BenchRow[] = [];
  const label = (size: number) => `${size.toLocaleString('en-US')} events`;
  const unindexed = new Map<number, number>();
  for (const size of sizes) {
    const id = `long-${size}`;
    const path = join(coldDir, `${id}.jsonl`);
    if ((await stat(path).catch(() => undefined)) === undefined) {
      await copyFile(await longJournal(size), path);
    }
    await rm(join(coldDir, `${id}.idx`), { force: true });
    const { first, baselines } = await firstPage(id, 0, true);
    unindexed.set(size, first);
    rows.push(
      {
        section,
        name: `first tail Page on a fresh host, no index, ${label(size)}`,
        value: first,
        unit: 'ms',
        note: 'read backwards from the end while the host builds the index (baseline_pending)',
      },
      {
        section,
        name: `baselines ready on a fresh host, no index, ${label(size)}`,
        value: baselines!,
        unit: 'ms',
        note: 'the index built in the background (one scan); a one-message Page every 50 ms',
      },
    );
  }
  rows.push({
    section,
    name: `cold first Page ratio without an index ${label(sizes.at(-1)!)} / ${label(sizes[0]!)}`,
    value: unindexed.get(sizes.at(-1)!)! / unindexed.get(sizes[0]!)!,
    unit: 'x',
    note: 'one fresh host per size; the tail page does not wait for the index',
  });
  // The sizes take turns, so the load of a shared machine weighs on each alike.
  for (const settleMs of [0, settledMs]) {
    const samples = new Map<number, number[]>(sizes.map((size) => [size, []]));
    for (let i = 0; i < runs; i += 1) {
      for (const size of sizes) {
        samples.get(size)!.push((await firstPage(`long-${size}`, settleMs)).first);
      }
    }
    const when = settleMs === 0 ? 'right after' : `${settleMs / 1000} s after`;
    const p50 = (size: number) => percentile(samples.get(size)!, 50);
    for (const size of sizes) {
      rows.push({
        section,
        name: `first tail Page on a fresh host, persisted index, ${label(size)} (${when} ListSessions)`,
        value: p50(size),
        unit: 'ms',
        note: `p50 of ${runs} fresh host processes`,
      });
    }
    rows.push({
      section,
      name: `cold first Page ratio ${label(sizes.at(-1)!)} / ${label(sizes[0]!)} (${when} ListSessions)`,
      value: p50(sizes.at(-1)!) / p50(sizes[0]!),
      unit: 'x',
      note:
        settleMs === 0
          ? "the host's own start-up work still runs beside the Page"
          : 'target <= 1.5; the start-up work has settled',
    });
  }
  return rows;
}

/**
 * Starts a fresh host on the cold dir and times its first tail `Page` of `sessionId`
 * and, with `untilBaselines`, how long after that Page's start a tail Page carries the
 * baselines (polled every 50 ms with one-message pages).
 */
async function firstPage(
  sessionId: string,
  settleMs = 0,
  untilBaselines = false,
): Promise<{ first: number; baselines: number | undefined }> {
  const host = await startHost(coldDir, join(benchDataDir, 'cold-home'));
  try {
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    // One ListSessions first: the connection, the server's first request and the catalog
    // are then behind it, and what is timed is the session's first open and page.
    await client.listSessions({});
    if (settleMs > 0) await new Promise((resolve) => setTimeout(resolve, settleMs));
    const start = performance.now();
    let page = await client.page({ sessionId });
    const first = since(start);
    if (page.events.length === 0) throw new Error(`session ${sessionId}: an empty tail page`);
    if (!untilBaselines) return { first, baselines: undefined };
    while (page.baselinePending) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      page = await client.page({ sessionId, maxMessages: 1 });
    }
    if (page.baseline === undefined) throw new Error(`session ${sessionId}: no baseline`);
    return { first, baselines: since(start) };
  } finally {
    await host.stop();
  }
}
