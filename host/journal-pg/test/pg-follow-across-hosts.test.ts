import { userMessage } from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import { openJournalStore, type JournalLog, type JournalStore } from '@dsh/journal';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createPgJournalBackend, type PgJournalBackend } from '../src/index.js';
import { freshSchema, skipWithoutPostgres, startPostgres, type TestPostgres } from './test-kit.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterAll(async () => {
  await postgres?.destroy();
});

const followOptions = { queueLimit: 100_000, readChunk: 64, readChunkBytes: 64 * 1024 };

/** Two hosts on one database: two backends, each with its own pool and listener. */
async function twoHosts(): Promise<{ a: PgJournalBackend; b: PgJournalBackend }> {
  const schema = freshSchema('hosts');
  const url = postgres!.url;
  const a = await createPgJournalBackend({ url, schema, poolSize: 3 });
  const b = await createPgJournalBackend({ url, schema, poolSize: 3 });
  opened.push(a, b);
  return { a, b };
}
const opened: PgJournalBackend[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((backend) => backend.close()));
});

/**
 * Appends `count` events through `log` one batch at a time, each at the end the database
 * has: an append the outage failed is retried, and one that committed before its reply
 * was lost is not sent again (the end tells).
 */
async function appendThrough(log: JournalLog, from: number, count: number): Promise<void> {
  for (let i = from; i < from + count;) {
    try {
      await log.append([userMessage(`event ${i}`)], { expectedSeq: i });
      i += 1;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
      const length = await log.head().then(
        (head) => head.length,
        () => i,
      );
      i = length;
    }
  }
}

/** Takes events from a follow until `count` came (or the deadline passes, failing). */
async function take(
  follow: { next(): Promise<readonly SessionEvent[]> },
  count: number,
): Promise<SessionEvent[]> {
  const got: SessionEvent[] = [];
  const deadline = Date.now() + 20_000;
  while (got.length < count) {
    if (Date.now() > deadline) throw new Error(`only ${got.length} of ${count} events came`);
    got.push(...(await follow.next()));
  }
  return got;
}

describe.skipIf(skip)('follow across hosts', () => {
  it('delivers appends through host A to a follower on host B, gap-free and in order', async () => {
    const { a, b } = await twoHosts();
    const storeB: JournalStore = openJournalStore(b);
    const logA = await a.create({ cwd: '/w', sessionId: 'shared' });
    await appendThrough(logA, 0, 20);
    const stop = new AbortController();
    const follow = await (
      await storeB.open('shared')
    ).follow(5, {
      ...followOptions,
      signal: stop.signal,
    });
    const appending = appendThrough(logA, 20, 180);
    const got = await take(follow, 195);
    await appending;
    expect(got.map((e) => e.seq)).toEqual(Array.from({ length: 195 }, (_, i) => i + 5));
    expect(got).toEqual(await logA.read(5, 200));
    stop.abort();
  });

  it('shows both hosts the same pages and lists', async () => {
    const { a, b } = await twoHosts();
    const [storeA, storeB] = [openJournalStore(a), openJournalStore(b)];
    const journal = await storeA.create({ cwd: '/w', sessionId: 'paged' });
    for (let i = 0; i < 30; i += 1) await journal.append([userMessage(`q ${i}`)]);
    const fromB = await storeB.open('paged');
    expect(await fromB.page(undefined, 7)).toEqual(await journal.page(undefined, 7));
    expect(await fromB.page(12, 5)).toEqual(await journal.page(12, 5));
    expect(await storeB.list()).toEqual(await storeA.list());
  });

  it('survives a database restart: the follower resumes with nothing lost or repeated', async () => {
    const { a, b } = await twoHosts();
    const logA = await a.create({ cwd: '/w', sessionId: 'restart' });
    const stop = new AbortController();
    const follow = await (
      await openJournalStore(b).open('restart')
    ).follow(0, {
      ...followOptions,
      signal: stop.signal,
    });
    await appendThrough(logA, 0, 30);
    const before = await take(follow, 30);
    await postgres!.restart();
    await appendThrough(logA, 30, 30);
    const after = await take(follow, 30);
    expect([...before, ...after].map((e) => e.seq)).toEqual(
      Array.from({ length: 60 }, (_, i) => i),
    );
    expect([...before, ...after]).toEqual(await logA.read(0, 60));
    // Host B's listener is back: a new append wakes its follower without a poll.
    await appendThrough(logA, 60, 1);
    const started = Date.now();
    expect((await take(follow, 1)).map((e) => e.seq)).toEqual([60]);
    expect(Date.now() - started).toBeLessThan(4000);
    stop.abort();
  });

  it('fails appends while the database is down, naming the fix, and serves again once it is back', async () => {
    const { a, b } = await twoHosts();
    const logA = await a.create({ cwd: '/w', sessionId: 'down' });
    const stop = new AbortController();
    const follow = await (
      await openJournalStore(b).open('down')
    ).follow(0, {
      ...followOptions,
      signal: stop.signal,
    });
    const watch = b.watch({ signal: stop.signal })[Symbol.asyncIterator]();
    await watch.next();
    await appendThrough(logA, 0, 5);
    await postgres!.stopServer();
    try {
      const error = await logA.append([userMessage('lost?')], { expectedSeq: 5 }).then(
        () => undefined,
        (e: unknown) => e as { kind?: string; message?: string },
      );
      expect(error?.kind).toBe('unavailable');
      expect(error?.message).toMatch(/is down or unreachable .*DSH_STORE \/ --store/);
    } finally {
      await postgres!.start();
    }
    await appendThrough(logA, 5, 5);
    expect((await take(follow, 10)).map((e) => e.seq)).toEqual(
      Array.from({ length: 10 }, (_, i) => i),
    );
    await a.create({ cwd: '/w', sessionId: 'after' });
    const seen: string[] = [];
    const deadline = Date.now() + 10_000;
    while (!seen.includes('added after') && Date.now() < deadline) {
      const next = await watch.next();
      if (next.done === true) break;
      seen.push(...next.value.map((c) => `${c.kind} ${c.sessionId}`));
    }
    expect(seen).toContain('added after');
    stop.abort();
  });
});
