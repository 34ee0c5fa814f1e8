import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLongSession, userMessage, type Payload } from '@dsh/fixtures';
import { openJournalStore, type Journal, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { createPgJournalBackend, type PgJournalBackend } from '@dsh/journal-pg';
import { postgresMissing, startPostgres } from '@dsh/journal-pg/test-kit';
import { percentile, sample, since, type BenchRow } from './bench-row.js';

/** Events per append while a long session is loaded. */
const loadBatch = 2000;

/**
 * The PostgreSQL store against the file store, both on this machine's disk (the database
 * with fsync and synchronous commit on, as in production): tail `Page` at growing session
 * sizes (the 1M/1k ratio is the O(page) check), append-to-receive p50/p99 for 1 and 10
 * followers on the same host and on another host (a second backend with its own pool and
 * listener), and the append rate of one-event appends.
 */
export async function postgresBench(quick: boolean): Promise<BenchRow[]> {
  const missing = postgresMissing();
  if (missing !== undefined) {
    return [{ section: 'postgres', name: 'skipped', value: Number.NaN, unit: '', note: missing }];
  }
  const postgres = await startPostgres({ durable: true });
  const dir = await mkdtemp(join(tmpdir(), 'dsh-bench-pg-'));
  const backends: PgJournalBackend[] = [];
  const pgStore = async (): Promise<JournalStore> => {
    const backend = await createPgJournalBackend({ url: postgres.url, schema: 'bench' });
    backends.push(backend);
    return openJournalStore(backend);
  };
  try {
    const a = await pgStore();
    const b = await pgStore();
    const files = await createJournalStore({ dataDir: join(dir, 'sessions') });
    const rows = [
      ...(await tailPages(quick ? [1_000, 10_000] : [1_000, 1_000_000], a, files)),
      ...(await appendToReceive(quick ? 50 : 200, [
        ['file', files, files],
        ['postgres, same host', a, a],
        ['postgres, append on A, follow on B', a, b],
      ])),
    ];
    await files.close();
    return rows;
  } finally {
    await Promise.all(backends.map((backend) => backend.close()));
    await postgres.destroy();
    await rm(dir, { recursive: true, force: true });
  }
}

/** Fills a session of `size` events in appends of `loadBatch`; resolves with the journal and load ms. */
async function longSession(store: JournalStore, size: number): Promise<[Journal, number]> {
  const journal = await store.create({ cwd: '/bench' });
  const start = performance.now();
  let batch: Payload[] = [];
  for (const payload of generateLongSession({ events: size, seed: 7 })) {
    batch.push(payload);
    if (batch.length === loadBatch) {
      await journal.append(batch);
      batch = [];
    }
  }
  if (batch.length > 0) await journal.append(batch);
  return [journal, since(start)];
}

async function tailPages(
  sizes: readonly number[],
  pg: JournalStore,
  files: JournalStore,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const p50 = new Map<string, number>();
  for (const size of sizes) {
    const label = size.toLocaleString('en-US');
    for (const [name, store] of [
      ['postgres', pg],
      ['file', files],
    ] as const) {
      const [journal, loadMs] = await longSession(store, size);
      const tail = await sample(50, () => journal.page(undefined, 50));
      p50.set(`${name}:${size}`, percentile(tail, 50));
      rows.push(
        {
          section: 'postgres',
          name: `${name}: tail page p50, ${label} events`,
          value: percentile(tail, 50),
          unit: 'ms',
        },
        {
          section: 'postgres',
          name: `${name}: tail page p99, ${label} events`,
          value: percentile(tail, 99),
          unit: 'ms',
        },
        {
          section: 'postgres',
          name: `${name}: load ${label} events in appends of ${loadBatch}`,
          value: size / (loadMs / 1000),
          unit: 'events/s',
        },
      );
    }
  }
  const [small, large] = [sizes[0]!, sizes.at(-1)!];
  const ratio = (name: string) => p50.get(`${name}:${large}`)! / p50.get(`${name}:${small}`)!;
  rows.push(
    {
      section: 'postgres',
      name: `postgres: tail page p50 ratio ${large.toLocaleString('en-US')} / ${small.toLocaleString('en-US')} events`,
      value: ratio('postgres'),
      unit: 'x',
      note: 'target <= 1.5 (one indexed range read per call)',
    },
    {
      section: 'postgres',
      name: `postgres / file tail page p50, ${large.toLocaleString('en-US')} events`,
      value: p50.get(`postgres:${large}`)! / p50.get(`file:${large}`)!,
      unit: 'x',
      note: 'round trips to the database against reads from the page cache',
    },
  );
  return rows;
}

/**
 * One event appended at a time through `writer`, each round waiting until every follower
 * on `reader` got it: append-to-receive latencies and the rounds' append rate.
 */
async function appendToReceive(
  rounds: number,
  setups: readonly (readonly [string, JournalStore, JournalStore])[],
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  for (const [name, writer, reader] of setups) {
    for (const followers of [1, 10]) {
      const journal = await writer.create({ cwd: '/bench' });
      const watched = await reader.open(journal.header.sessionId);
      const stop = new AbortController();
      const follows = await Promise.all(
        Array.from({ length: followers }, () =>
          watched.follow(0, {
            queueLimit: 100_000,
            readChunk: 256,
            readChunkBytes: 1 << 20,
            signal: stop.signal,
          }),
        ),
      );
      const latencies: number[] = [];
      const start = performance.now();
      for (let i = 0; i < rounds; i += 1) {
        const at = performance.now();
        await journal.append([userMessage(`round ${i}`)]);
        await Promise.all(
          follows.map(async (follow) => {
            let got = -1;
            while (got < i) got = (await follow.next()).at(-1)!.seq;
            latencies.push(since(at));
          }),
        );
      }
      const ms = since(start);
      stop.abort();
      rows.push(
        {
          section: 'postgres',
          name: `${name}: append-to-receive p50, ${followers} follower(s)`,
          value: percentile(latencies, 50),
          unit: 'ms',
        },
        {
          section: 'postgres',
          name: `${name}: append-to-receive p99, ${followers} follower(s)`,
          value: percentile(latencies, 99),
          unit: 'ms',
        },
      );
      if (followers === 1) {
        rows.push({
          section: 'postgres',
          name: `${name}: one-event appends, each followed`,
          value: rounds / (ms / 1000),
          unit: 'appends/s',
          note: name === 'file' ? 'one fdatasync each' : 'one commit (WAL flush) each',
        });
      }
    }
  }
  return rows;
}
