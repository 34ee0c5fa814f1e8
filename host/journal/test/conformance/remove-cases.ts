import { userMessage } from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import type { StoreChange } from '../../src/index.js';
import type { ConformanceContext } from './backend-conformance.js';
import { appendAll, conversation, errorKind, nextEvents } from './conformance-kit.js';

/** remove and close. */
export function removeCases(context: () => ConformanceContext): void {
  describe('remove()', () => {
    it('removes a session: gone from open, summary and list, its tail ended, watch told', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 'doomed' });
      await backend.create({ cwd: '/w', sessionId: 'kept' });
      await appendAll(log, conversation(3));
      const stop = new AbortController();
      const tail = log.tail(0, { signal: stop.signal })[Symbol.asyncIterator]();
      const watch = backend.watch({ signal: stop.signal })[Symbol.asyncIterator]();
      await Promise.all([tail.next(), watch.next()]);
      expect(typeof (await backend.remove('doomed'))).toBe('string');
      expect(await errorKind(backend.open('doomed'))).toBe('not_found');
      expect(await backend.summary('doomed')).toBeUndefined();
      expect((await backend.list()).map((s) => s.header.sessionId)).toEqual(['kept']);
      const changes: StoreChange[] = [];
      while (!changes.some((c) => c.kind === 'removed' && c.sessionId === 'doomed')) {
        changes.push(...(await nextEvents(watch)));
      }
      expect((await tail.next()).done).toBe(true);
      stop.abort();
    });

    it('refuses an unknown session with not_found, and lets a removed id be taken again', async () => {
      const { backend } = context();
      expect(await errorKind(backend.remove('nobody'))).toBe('not_found');
      await backend.create({ cwd: '/w', sessionId: 'again' });
      await backend.remove('again');
      const log = await backend.create({ cwd: '/w', sessionId: 'again' });
      expect((await log.head()).length).toBe(0);
    });
  });

  describe('close()', () => {
    it('refuses appends after it with read_only, and a second call does nothing', async () => {
      const { backend } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 's' });
      const pending = log.append([userMessage('in flight')], { expectedSeq: 0 });
      await backend.close();
      expect((await pending).map((e) => e.seq)).toEqual([0]);
      expect(await errorKind(log.append([userMessage('late')], { expectedSeq: 1 }))).toBe(
        'read_only',
      );
      await backend.close();
    });
  });
}
