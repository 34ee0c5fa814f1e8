import { userMessage } from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { openJournalStore, type Journal, type JournalPage } from '../../src/index.js';
import type { ConformanceContext } from './backend-conformance.js';
import { appendAll, conversation, errorKind, messageSeqs } from './conformance-kit.js';

/** Pages as the journal core cuts them over the backend. */
export function pageCases(context: () => ConformanceContext): void {
  describe('Journal.page() over the backend', () => {
    async function setup(turns: number): Promise<{ journal: Journal; all: SessionEvent[] }> {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 'paged' });
      const all = await appendAll(log, conversation(turns));
      return { journal: await openJournalStore(backend).open('paged'), all };
    }

    function fullFold(all: readonly SessionEvent[], seq: number) {
      const { projections } = context().backend;
      let states = projections.initial();
      for (const event of all.slice(0, seq)) states = projections.fold(states, event);
      return projections.baseline(states, seq);
    }

    it.each([1, 7, 1000])(
      'with maxMessages %i: message-aligned pages that join without hole or overlap',
      async (maxMessages) => {
        const { journal, all } = await setup(150);
        const pages: JournalPage[] = [];
        let beforeSeq: number | undefined;
        for (;;) {
          const page = await journal.page(beforeSeq, maxMessages);
          pages.push(page);
          if (!page.hasMore) break;
          beforeSeq = page.events[0]!.seq;
        }
        const starts = new Set(messageSeqs(all));
        expect(pages.reverse().flatMap((p) => p.events)).toEqual(all);
        for (const page of pages) {
          const first = page.events[0]!.seq;
          expect(first === 0 || starts.has(first)).toBe(true);
          expect(messageSeqs(page.events).length).toBeLessThanOrEqual(maxMessages);
        }
      },
    );

    it('puts a baseline equal to a full fold on the tail page only', async () => {
      const { journal, all } = await setup(200);
      for (const maxMessages of [1, 5, 37, 399]) {
        const tail = await journal.page(undefined, maxMessages);
        const start = tail.events[0]!.seq;
        expect(tail.baseline).toEqual(fullFold(all, start));
        expect((await journal.page(start, maxMessages)).baseline).toBeUndefined();
      }
    });

    it('pages appended events like written ones', async () => {
      const { journal, all } = await setup(20);
      const appended = await journal.append([userMessage('late'), userMessage('later')]);
      const tail = await journal.page(undefined, 2);
      expect(tail.events).toEqual(appended);
      expect(tail.baseline).toEqual(fullFold([...all, ...appended], all.length));
    });

    it.each([
      ['beforeSeq past the end', 100_000, 10],
      ['negative beforeSeq', -1, 10],
      ['maxMessages over 1000', undefined, 1001],
    ])('refuses %s with invalid_argument', async (_name, beforeSeq, maxMessages) => {
      const { journal } = await setup(3);
      expect(await errorKind(journal.page(beforeSeq, maxMessages))).toBe('invalid_argument');
    });
  });
}
