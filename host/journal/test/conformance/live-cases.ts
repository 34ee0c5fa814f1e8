import { userMessage } from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import { describe, expect, it, vi } from 'vitest';
import { openJournalStore, type StoreChange } from '../../src/index.js';
import type { ConformanceContext } from './backend-conformance.js';
import { appendAll, collect, conversation, errorKind, nextEvents } from './conformance-kit.js';

const followOptions = { queueLimit: 10_000, readChunk: 64, readChunkBytes: 16 * 1024 };

const seqs = (list: readonly SessionEvent[]) => list.map((e) => e.seq);
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** The live tail, follow over it, and the watch of sessions. */
export function liveCases(context: () => ConformanceContext): void {
  describe('tail()', () => {
    it('goes live with its first batch, then yields every later append in order', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      await appendAll(log, conversation(3));
      const { length } = await log.head();
      const stop = new AbortController();
      const tail = log.tail(length, { signal: stop.signal })[Symbol.asyncIterator]();
      await tail.next();
      for (let i = 0; i < 5; i += 1) {
        await log.append([userMessage(`live ${i}`)], { expectedSeq: length + i });
      }
      const live = (await collect(tail, 5)).filter((e) => e.seq >= length);
      expect(seqs(live)).toEqual(range(length, length + 5));
      expect(log.tailCount).toBe(1);
      stop.abort();
      expect((await tail.next()).done).toBe(true);
      await vi.waitFor(() => expect(log.tailCount).toBe(0));
    });

    it('ends when the backend closes', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const tail = log.tail(0, { signal: new AbortController().signal })[Symbol.asyncIterator]();
      await tail.next();
      const ended = tail.next();
      await backend.close();
      expect((await ended).done).toBe(true);
    });
  });

  describe('Journal.follow() over the backend', () => {
    it('catches up from a seq, then delivers live events, each exactly once', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const written = await appendAll(log, conversation(60));
      const journal = await openJournalStore(backend).open('s');
      const stop = new AbortController();
      const follow = await journal.follow(10, { ...followOptions, signal: stop.signal });
      expect(follow.length).toBe(written.length);
      const late: Promise<unknown>[] = [];
      for (let i = 0; i < 50; i += 1) late.push(journal.append([userMessage(`late ${i}`)]));
      await Promise.all(late);
      const total = written.length + 50;
      const got: number[] = [];
      while (got.length < total - 10) got.push(...seqs(await follow.next()));
      expect(got).toEqual(range(10, total));
      stop.abort();
      await expect(follow.next()).rejects.toBeDefined();
      await vi.waitFor(() => expect(journal.tailCount).toBe(0));
    });

    it('polls without waiting, and notifies at an append and at the abort', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const written = await appendAll(log, conversation(3));
      const journal = await openJournalStore(backend).open('s');
      const stop = new AbortController();
      const follow = await journal.follow(0, { ...followOptions, signal: stop.signal });
      expect(follow.poll()).toBe('read');
      const caught: number[] = [];
      while (caught.length < written.length) caught.push(...seqs(await follow.next()));
      expect(follow.poll()).toBe('wait');
      const appended = new Promise<void>((resolve) => follow.notify(resolve));
      await journal.append([userMessage('live')]);
      await appended;
      const live = follow.poll();
      expect(typeof live === 'string' ? live : seqs(live)).toEqual([written.length]);
      expect(follow.poll()).toBe('wait');
      const aborted = new Promise<void>((resolve) => follow.notify(resolve));
      stop.abort();
      await aborted;
      expect(() => follow.poll()).toThrow();
      await vi.waitFor(() => expect(journal.tailCount).toBe(0));
    });

    it('shares catch-up reads between followers that start at different seqs', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const written = await appendAll(log, conversation(60));
      const reads: string[] = [];
      const counted = new Proxy(backend, {
        get(target, key) {
          if (key !== 'open') return Reflect.get(target, key, target) as unknown;
          return async (sessionId: string) =>
            new Proxy(await target.open(sessionId), {
              get(opened, name) {
                const value = Reflect.get(opened, name, opened) as unknown;
                if (name !== 'read' || typeof value !== 'function') {
                  return typeof value === 'function' ? value.bind(opened) : value;
                }
                return (from: number, to: number, options?: object) => {
                  reads.push(`${from}-${to}`);
                  return value.call(opened, from, to, options) as unknown;
                };
              },
            });
        },
      });
      const journal = await openJournalStore(counted).open('s');
      reads.length = 0;
      const stop = new AbortController();
      const early = await journal.follow(10, { ...followOptions, signal: stop.signal });
      const later = await journal.follow(40, { ...followOptions, signal: stop.signal });
      const got = { early: [] as SessionEvent[], later: [] as SessionEvent[] };
      while (got.early.length < written.length - 10) got.early.push(...(await early.next()));
      while (got.later.length < written.length - 40) got.later.push(...(await later.next()));
      expect(seqs(got.later)).toEqual(range(40, written.length));
      // The later follower's first chunk ends where the early one's does; then they share.
      expect(reads.filter((range) => !range.startsWith('10-'))).toContain('40-64');
      expect(new Set(reads).size).toBe(reads.length);
      expect(got.later.slice(24)).toEqual(got.early.slice(54));
      expect(got.later[24]).toBe(got.early[54]);
      stop.abort();
    });

    it('serves followers in step the same live events from one tail', async () => {
      const { backend } = context();
      await backend.create({ cwd: '/w', sessionId: 's' });
      const journal = await openJournalStore(backend).open('s');
      const stop = new AbortController();
      const follows = await Promise.all(
        [0, 0, 0].map((from) => journal.follow(from, { ...followOptions, signal: stop.signal })),
      );
      expect(journal.tailCount).toBe(3);
      expect(follows.map((follow) => follow.poll())).toEqual(['wait', 'wait', 'wait']);
      const woken = follows.map((follow) => new Promise<void>((resolve) => follow.notify(resolve)));
      await journal.append([userMessage('a'), userMessage('b')]);
      await Promise.all(woken);
      const [first, ...others] = follows.map((follow) => follow.poll());
      expect(typeof first === 'string' ? first : seqs(first!)).toEqual([0, 1]);
      for (const taken of others) expect(taken).toBe(first);
      // A follower that leaves takes nothing from the others.
      follows[0]!.close();
      await journal.append([userMessage('c')]);
      const next = await follows[1]!.next();
      expect(seqs(next)).toEqual([2]);
      expect(await follows[2]!.next()).toBe(next);
      stop.abort();
      await vi.waitFor(() => expect(journal.tailCount).toBe(0));
    });

    it('fails a follower that falls queueLimit events behind with too_slow', async () => {
      const { backend } = context();
      await backend.create({ cwd: '/w', sessionId: 's' });
      const journal = await openJournalStore(backend).open('s');
      const stop = new AbortController();
      const slow = await journal.follow(0, {
        ...followOptions,
        queueLimit: 5,
        signal: stop.signal,
      });
      // A follower that reads everything tells when the live events have come.
      const witness = await journal.follow(0, { ...followOptions, signal: stop.signal });
      await journal.append(Array.from({ length: 20 }, (_, i) => userMessage(`e${i}`)));
      const seen: number[] = [];
      while (seen.length < 20) seen.push(...seqs(await witness.next()));
      expect(await errorKind(slow.next())).toBe('too_slow');
      stop.abort();
    });
  });

  describe('watch()', () => {
    it('goes live with its first batch, then reports created and appended sessions', async () => {
      const { backend } = context();
      const stop = new AbortController();
      const watch = backend.watch({ signal: stop.signal })[Symbol.asyncIterator]();
      await watch.next();
      const log = await backend.create({ cwd: '/w', sessionId: 'watched' });
      const changes: StoreChange[] = [];
      const seen = (kind: StoreChange['kind']) =>
        changes.some((c) => c.kind === kind && c.sessionId === 'watched');
      while (!seen('added')) changes.push(...(await nextEvents(watch)));
      await log.append([userMessage('x')], { expectedSeq: 0 });
      while (!seen('updated')) changes.push(...(await nextEvents(watch)));
      stop.abort();
      expect((await watch.next()).done).toBe(true);
    });
  });
}
