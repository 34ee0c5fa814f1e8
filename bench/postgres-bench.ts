import { setMaxListeners } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateLongSession, userMessage, type Payload } from '@dsh/fixtures';
import { openJournalStore, type Journal, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { createPgJournalBackend, type PgJournalBackend } from '@dsh/journal-pg';
import { postgresMissing, startPostgres } from '@dsh/journal-pg/test-kit';
import { percentile, sample, since, type BenchRow } from './bench-row.js';
import { tailPageRows } from './pg-tail-pages.js';

/** Events per append while a long session is loaded. */
const loadBatch = 2000;

/**
 * The PostgreSQL store against the file store, both on this machine's disk (the database
 * with fsync and synchronous commit on, as in production): tail `Page` at growing session
 * sizes (the 1M/1k ratio is the O(page) check), append-to-receive p50/p99 and the
 * append rate of one-event appends for 1, 10 and 100 followers on the same host and on
 * another host (a second backend with its own pool and listener), and the round trip of
 * an input forwarded to the host that owns the session.
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
      ...(await tailPages(
        quick ? [1_000, 10_000] : [1_000, 1_000_000],
        { backend: backends[0]!, store: a },
        files,
      )),
      ...(await appendToReceive(quick ? 50 : 200, [
        ['file', files, files],
        ['postgres, same host', a, a],
        ['postgres, append on A, follow on B', a, b],
      ])),
      ...(await forwardedInputs(quick ? 50 : 200, backends[0]!, backends[1]!, a)),
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

/**
 * A session of each size in each store (the load rates as rows), then the tail pages
 * timed in interleaved rounds by `tailPageRows`.
 */
async function tailPages(
  sizes: readonly [number, number],
  pg: { backend: PgJournalBackend; store: JournalStore },
  files: JournalStore,
): Promise<BenchRow[]> {
  const rows: BenchRow[] = [];
  const journals = new Map<string, Map<number, Journal>>();
  for (const size of sizes) {
    const label = size.toLocaleString('en-US');
    for (const [name, store] of [
      ['postgres', pg.store],
      ['file', files],
    ] as const) {
      const [journal, loadMs] = await longSession(store, size);
      const bySize = journals.get(name) ?? new Map<number, Journal>();
      journals.set(name, bySize.set(size, journal));
      rows.push({
        section: 'postgres',
        name: `${name}: load ${label} events in appends of ${loadBatch}`,
        value: size / (loadMs / 1000),
        unit: 'events/s',
      });
    }
  }
  return [...rows, ...(await tailPageRows(journals, sizes, pg))];
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
  const p50 = new Map<string, number>();
  for (const [name, writer, reader] of setups) {
    for (const followers of [1, 10, 100]) {
      const journal = await writer.create({ cwd: '/bench' });
      const watched = await reader.open(journal.header.sessionId);
      const stop = new AbortController();
      // Every follower of a round listens on this one signal.
      setMaxListeners(followers + 10, stop.signal);
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
      p50.set(`${name}:${followers}`, percentile(latencies, 50));
      rows.push({
        section: 'postgres',
        name: `${name}: one-event appends, each received by ${followers} follower(s)`,
        value: rounds / (ms / 1000),
        unit: 'appends/s',
        note: name === 'file' ? 'one fdatasync each' : 'one commit (WAL flush) each',
      });
    }
  }
  const [file, same, cross] = setups.map(([name]) => name);
  for (const followers of [1, 10, 100]) {
    const at = (name: string | undefined) => p50.get(`${name}:${followers}`)!;
    rows.push(
      {
        section: 'postgres',
        name: `postgres / file append-to-receive p50, ${followers} follower(s)`,
        value: at(same) / at(file),
        unit: 'x',
        note: 'a commit and a NOTIFY round trip against an fdatasync and an in-process wake',
      },
      {
        section: 'postgres',
        name: `cross-host / same-host append-to-receive p50, ${followers} follower(s)`,
        value: at(cross) / at(same),
        unit: 'x',
        note: 'NOTIFY to the other host, then its one read by seq shared by its followers',
      },
    );
  }
  return rows;
}

/**
 * Inputs stored on host B for a session host A owns, each answered by A: the round trip
 * a Prompt, Cancel or Respond sent to a host that does not run the session adds.
 */
async function forwardedInputs(
  rounds: number,
  owner: PgJournalBackend,
  sender: PgJournalBackend,
  store: JournalStore,
): Promise<BenchRow[]> {
  const journal = await store.create({ cwd: '/bench' });
  const sessionId = journal.header.sessionId;
  owner.leases.serve({
    input: (_id, body) => Promise.resolve({ ok: body }),
    adopted: () => undefined,
    lost: () => undefined,
    status: () => undefined,
  });
  await owner.leases.claim(sessionId);
  const latencies = await sample(rounds, () => sender.leases.forward(sessionId, { n: 1 }));
  await owner.leases.release(sessionId);
  const note = 'insert + NOTIFY, the owner claims, answers + NOTIFY, the sender reads and deletes';
  return [
    {
      section: 'postgres',
      name: 'input forwarded to the owning host: round trip p50',
      value: percentile(latencies, 50),
      unit: 'ms',
      note,
    },
    {
      section: 'postgres',
      name: 'input forwarded to the owning host: round trip p99',
      value: percentile(latencies, 99),
      unit: 'ms',
    },
  ];
}
