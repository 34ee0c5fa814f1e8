import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BenchRow } from './bench-row.js';
import { readerLabel } from './client-processes.js';
import { withHost } from './fanout-host.js';
import { latencyRows } from './fanout-latency-rows.js';
import { fanoutPageRows } from './fanout-page-rows.js';
import { writerRows } from './fanout-writer-rows.js';
import { startPacedModel } from './paced-model.js';

const section = 'fanout';

interface Sizes {
  /** Follower counts of the latency rows. */
  readonly followers: readonly number[];
  /** Chunks of the paced answer and the pause between them. */
  readonly pacedChunks: number;
  readonly paceMs: number;
  /** Chunks of the writer's fixed workload (streamed as fast as it goes) and its followers. */
  readonly writerChunks: number;
  readonly writerFollowers: number;
}

/**
 * Fan-out of one session to many followers and `Page` under concurrency, each on a fresh
 * `dsh serve` process with every client in child processes (`fanout-clients.ts`):
 * append-to-receive latency of a steady stream of appends with its host CPU breakdown,
 * the writer's event rate with and without followers, and tail pages of a long session
 * at concurrency 1 and 200.
 */
export async function fanoutBench(quick: boolean): Promise<BenchRow[]> {
  const sizes: Sizes = quick
    ? {
        followers: [100, 300],
        pacedChunks: 100,
        paceMs: 40,
        writerChunks: 5_000,
        writerFollowers: 100,
      }
    : {
        followers: [100, 1000],
        pacedChunks: 250,
        paceMs: 40,
        writerChunks: 20_000,
        writerFollowers: 500,
      };
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-fanout-'));
  const model = await startPacedModel();
  const rows: BenchRow[] = [];
  const attempt = async (name: string, fn: () => Promise<BenchRow[]>): Promise<void> => {
    try {
      rows.push(...(await fn()));
    } catch (error) {
      rows.push({
        section,
        name: `${name} failed`,
        value: Number.NaN,
        unit: '',
        note: String(error),
      });
    }
  };
  try {
    const profiled: BenchRow[] = [];
    // The target rows with load-generator clients, then the same load read by Connect
    // clients: the difference is what the clients' decoding takes from the shared cores.
    for (const reader of ['wire', 'connect'] as const) {
      for (const followers of sizes.followers) {
        const name = `latency-${followers}${reader === 'wire' ? '' : '-connect'}`;
        await attempt(`latency, ${followers} followers${readerLabel(reader)}`, () =>
          withHost(
            dir,
            model,
            name,
            (bench) => latencyRows(bench, followers, reader, sizes),
            profiled,
          ),
        );
      }
    }
    await attempt('writer', () => writerRows(dir, model, sizes, profiled));
    rows.push(...profiled.splice(0));
    await attempt('page', () =>
      fanoutPageRows(
        dir,
        quick ? { events: 100_000, seconds: 4 } : { events: 1_000_000, seconds: 10 },
      ),
    );
  } finally {
    await model.close();
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
