import { userMessage } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { checkpointInterval, eventType, messageTypes } from '../../src/index.js';
import type { ConformanceContext } from './backend-conformance.js';
import { appendAll, conversation, errorKind, messageSeqs } from './conformance-kit.js';

/** append with expected seqs, read, bytes, message starts and checkpoints. */
export function appendCases(context: () => ConformanceContext): void {
  describe('append() and read()', () => {
    it('appends at the expected seq and reads back what it wrote', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const first = await log.append([userMessage('a'), userMessage('b')], { expectedSeq: 0 });
      expect(first.map((e) => e.seq)).toEqual([0, 1]);
      const [third] = await log.append([userMessage('c')], { expectedSeq: 2 });
      expect(third!.seq).toBe(2);
      expect(await log.read(0, 3)).toEqual([...first, third]);
      expect(await log.head()).toEqual({ length: 3, updatedAt: timestampDate(third!.time!) });
    });

    it.each([
      ['behind the end', 1],
      ['past the end', 5],
    ])(
      'refuses an append whose expected seq is %s with conflict, writing nothing',
      async (_n, seq) => {
        const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
        const written = await log.append([userMessage('a'), userMessage('b')], { expectedSeq: 0 });
        expect(await errorKind(log.append([userMessage('x')], { expectedSeq: seq }))).toBe(
          'conflict',
        );
        expect((await log.head()).length).toBe(2);
        expect(await log.read(0, 2)).toEqual(written);
        const [next] = await log.append([userMessage('c')], { expectedSeq: 2 });
        expect(next!.seq).toBe(2);
      },
    );

    it('takes appends issued together at consecutive seqs, in call order', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const batches = await Promise.all([
        log.append([userMessage('a')], { expectedSeq: 0 }),
        log.append([userMessage('b'), userMessage('c')], { expectedSeq: 1 }),
        log.append([userMessage('d')], { expectedSeq: 3 }),
      ]);
      expect(batches.map((b) => b.map((e) => e.seq))).toEqual([[0], [1, 2], [3]]);
      expect((await log.head()).length).toBe(4);
    });

    it('keeps the given times, even out of order, and refuses bad ones writing nothing', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const times = [new Date('2025-03-04T05:06:07.891Z'), new Date('0001-01-01T00:00:00.000Z')];
      const events = await log.append([userMessage('a'), userMessage('b')], {
        expectedSeq: 0,
        times,
      });
      expect(events.map((e) => timestampDate(e.time!))).toEqual(times);
      expect((await log.head()).updatedAt).toEqual(times[1]);
      const bad = log.append([userMessage('c')], { expectedSeq: 2, times: [new Date('nope')] });
      expect(await errorKind(bad)).toBe('invalid_argument');
      expect((await log.head()).length).toBe(2);
    });

    it('reads any range, bounds a read by bytes, and refuses a range past the end', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const all = await appendAll(log, conversation(20));
      expect(await log.read(10, 20)).toEqual(all.slice(10, 20));
      expect(await log.read(5, 5)).toEqual([]);
      expect(await errorKind(log.read(0, all.length + 1))).toBe('invalid_argument');
      expect(await errorKind(log.read(3, 2))).toBe('invalid_argument');
      const bounded = await log.read(0, all.length, { maxBytes: await log.bytes(0, 7) });
      expect(bounded).toEqual(all.slice(0, 7));
      expect(await log.read(0, all.length, { maxBytes: 1 })).toEqual(all.slice(0, 1));
    });

    it('reads only the events a projection reads with fields: projections', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const all = await appendAll(log, conversation(12));
      const { projections } = backend;
      const partial = await log.read(0, all.length, { fields: 'projections' });
      expect(partial.map((e) => e.seq)).toEqual(
        all.filter((e) => projections.reads.has(eventType(e))).map((e) => e.seq),
      );
      const fold = (list: typeof all) =>
        projections.snapshot(list.reduce((s, e) => projections.fold(s, e), projections.initial()));
      expect(fold(partial)).toEqual(fold(all));
    });

    it('counts bytes additively over ranges', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const all = await appendAll(log, conversation(10));
      const n = all.length;
      expect(await log.bytes(4, 4)).toBe(0);
      expect(await log.bytes(0, 1)).toBeGreaterThan(0);
      expect((await log.bytes(0, 9)) + (await log.bytes(9, n))).toBe(await log.bytes(0, n));
    });
  });

  describe('messageStarts() and checkpoint()', () => {
    it('finds the last message starts below a seq', async () => {
      const log = await context().backend.create({ cwd: '/w', sessionId: 's' });
      const all = await appendAll(log, conversation(30));
      const starts = messageSeqs(all);
      for (const [before, last] of [
        [all.length, 5],
        [all.length, 1000],
        [40, 3],
        [starts[4]!, 2],
        [0, 10],
      ] as const) {
        const below = starts.filter((s) => s < before);
        expect(await log.messageStarts({ before, last })).toEqual(
          below.slice(Math.max(0, below.length - last)),
        );
      }
      expect(all.filter((e) => messageTypes.has(eventType(e)))).toHaveLength(starts.length);
    });

    it('gives a checkpoint at most 255 events below any seq, equal to a fold from the start', async () => {
      const { backend } = context();
      const { projections } = backend;
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const all = await appendAll(log, conversation(200));
      expect(all.length).toBeGreaterThan(2 * checkpointInterval);
      for (const seq of [0, 1, 255, 256, 300, all.length - 1, all.length]) {
        const checkpoint = await log.checkpoint(seq);
        expect(checkpoint.seq).toBeLessThanOrEqual(seq);
        expect(seq - checkpoint.seq).toBeLessThan(checkpointInterval);
        let states = projections.initial();
        for (const event of all.slice(0, checkpoint.seq)) states = projections.fold(states, event);
        expect(projections.snapshot(checkpoint.states)).toEqual(projections.snapshot(states));
      }
    });
  });
}
