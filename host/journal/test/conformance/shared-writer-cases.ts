import { userMessage } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import type { JournalBackend, StoreChange } from '../../src/index.js';
import type { ConformanceContext } from './backend-conformance.js';
import { collect, errorKind, nextEvents } from './conformance-kit.js';

/** Two backends on one storage at once: several hosts on one store. */
export function sharedWriterCases(context: () => ConformanceContext): void {
  describe('two backends on one storage', () => {
    async function second<T>(run: (other: JournalBackend) => Promise<T>): Promise<T> {
      const other = await context().storage.open();
      try {
        return await run(other);
      } finally {
        await other.close();
      }
    }

    it('lets exactly one of two appends at the same seq win; the other conflicts', async () => {
      const { backend } = context();
      const a = await backend.create({ cwd: '/w', sessionId: 's' });
      await second(async (other) => {
        const b = await other.open('s');
        const outcomes = await Promise.all([
          errorKind(a.append([userMessage('from a')], { expectedSeq: 0 })),
          errorKind(b.append([userMessage('from b')], { expectedSeq: 0 })),
        ]);
        expect(outcomes.sort()).toEqual(['conflict', 'resolved']);
        expect((await a.head()).length).toBe(1);
        expect((await b.head()).length).toBe(1);
        expect(await a.read(0, 1)).toEqual(await b.read(0, 1));
      });
    });

    it('tails and watches what the other appends and creates', async () => {
      const { backend } = context();
      const a = await backend.create({ cwd: '/w', sessionId: 's' });
      await second(async (other) => {
        const stop = new AbortController();
        const log = await other.open('s');
        const tail = log.tail(0, { signal: stop.signal })[Symbol.asyncIterator]();
        const watch = other.watch({ signal: stop.signal })[Symbol.asyncIterator]();
        await Promise.all([tail.next(), watch.next()]);
        await a.append([userMessage('1'), userMessage('2')], { expectedSeq: 0 });
        expect((await collect(tail, 2)).map((e) => e.seq)).toEqual([0, 1]);
        await backend.create({ cwd: '/w', sessionId: 'new' });
        const changes: StoreChange[] = [];
        while (!changes.some((c) => c.kind === 'added' && c.sessionId === 'new')) {
          changes.push(...(await nextEvents(watch)));
        }
        stop.abort();
      });
    });
  });
}
