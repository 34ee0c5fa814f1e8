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

/**
 * The first tail `Page` through the real RPC on a fresh `dsh serve` process, per session
 * size, after one `ListSessions` on that process: once with no index beside the journal
 * (the host rebuilds it), then `runs` times with the persisted index, each on a new
 * process; and the ratio of the largest to the
 * smallest with the index, which the target bounds.
 */
export async function coldPageBench(quick: boolean): Promise<BenchRow[]> {
  const sizes = quick ? [1_000, 100_000] : [1_000, 1_000_000];
  const runs = quick ? 3 : 7;
  await mkdir(coldDir, { recursive: true });
  const rows: BenchRow[] = [];
  const label = (size: number) => `${size.toLocaleString('en-US')} events`;
  for (const size of sizes) {
    const id = `long-${size}`;
    const path = join(coldDir, `${id}.jsonl`);
    if ((await stat(path).catch(() => undefined)) === undefined) {
      await copyFile(await longJournal(size), path);
    }
    await rm(join(coldDir, `${id}.idx`), { force: true });
    rows.push({
      section,
      name: `first tail Page on a fresh host, no index, ${label(size)}`,
      value: await firstPage(id),
      unit: 'ms',
      note: 'the host rebuilds the index (one scan of the journal), once',
    });
  }
  // The sizes take turns, so the load of a shared machine weighs on each alike.
  const samples = new Map<number, number[]>(sizes.map((size) => [size, []]));
  for (let i = 0; i < runs; i += 1) {
    for (const size of sizes) samples.get(size)!.push(await firstPage(`long-${size}`));
  }
  const indexed = new Map<number, number>();
  for (const size of sizes) {
    indexed.set(size, percentile(samples.get(size)!, 50));
    rows.push({
      section,
      name: `first tail Page on a fresh host, persisted index, ${label(size)}`,
      value: indexed.get(size)!,
      unit: 'ms',
      note: `p50 of ${runs} fresh host processes, each timed after one ListSessions`,
    });
  }
  const small = indexed.get(sizes[0]!);
  const large = indexed.get(sizes.at(-1)!);
  if (small !== undefined && large !== undefined) {
    rows.push({
      section,
      name: `cold first Page ratio ${sizes.at(-1)!.toLocaleString('en-US')} / ${sizes[0]!.toLocaleString('en-US')}`,
      value: large / small,
      unit: 'x',
      note: 'target <= 1.5',
    });
  }
  return rows;
}

/** Starts a fresh host on the cold dir and times its first tail `Page` of `sessionId`. */
async function firstPage(sessionId: string): Promise<number> {
  const host = await startHost(coldDir, join(benchDataDir, 'cold-home'));
  try {
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    // One ListSessions first: the connection, the server's first request and the catalog
    // are then behind it, and what is timed is the session's first open and page.
    await client.listSessions({});
    const start = performance.now();
    const page = await client.page({ sessionId });
    const ms = since(start);
    if (page.events.length === 0) throw new Error(`session ${sessionId}: an empty tail page`);
    return ms;
  } finally {
    await host.stop();
  }
}
