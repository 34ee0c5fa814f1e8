import { timestampDate } from '@bufbuild/protobuf/wkt';
import { describe, expect, it } from 'vitest';
import type { ConformanceContext } from './backend-conformance.js';
import { appendAll, conversation, errorKind } from './conformance-kit.js';

/** create, open and list. */
export function sessionCases(context: () => ConformanceContext): void {
  describe('create(), open() and list()', () => {
    it('creates a session with its header, an empty log, and lists it', async () => {
      const { backend } = context();
      const createdAt = new Date('2026-02-03T04:05:06.789Z');
      const log = await backend.create({
        cwd: '/work',
        model: 'm',
        title: 'T',
        sessionId: 'first',
        createdAt,
      });
      expect(log.header).toMatchObject({
        sessionId: 'first',
        cwd: '/work',
        model: 'm',
        title: 'T',
        parentId: '',
        createdAt: createdAt.toISOString(),
      });
      expect(log.readOnly).toBe(false);
      expect(await log.head()).toEqual({ length: 0, updatedAt: createdAt });
      const listed = await backend.list();
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({
        header: log.header,
        readOnly: false,
        length: 0,
        updatedAt: createdAt,
        error: undefined,
        title: 'T',
        model: 'm',
      });
    });

    it('generates distinct ids, and refuses a taken one with exists', async () => {
      const { backend } = context();
      const a = await backend.create({ cwd: '/w' });
      const b = await backend.create({ cwd: '/w' });
      expect(a.header.sessionId).not.toBe(b.header.sessionId);
      expect(await errorKind(backend.create({ cwd: '/w', sessionId: a.header.sessionId }))).toBe(
        'exists',
      );
    });

    it('needs an existing parent', async () => {
      const { backend } = context();
      expect(await errorKind(backend.create({ cwd: '/w', parentId: 'ghost' }))).toBe('not_found');
      const parent = await backend.create({ cwd: '/w' });
      const child = await backend.create({ cwd: '/w', parentId: parent.header.sessionId });
      expect(child.header.parentId).toBe(parent.header.sessionId);
    });

    it.each([
      ['an unknown session', 'nobody', 'not_found'],
      ['path traversal', '../x', 'invalid_argument'],
      ['an empty id', '', 'invalid_argument'],
    ])('refuses to open %s', async (_name, id, kind) => {
      expect(await errorKind(context().backend.open(id))).toBe(kind);
    });

    it('keeps sessions and events across a reopen of the storage', async () => {
      const { backend, storage } = context();
      const log = await backend.create({ cwd: '/w', sessionId: 'kept' });
      const written = await appendAll(log, conversation(5));
      await backend.close();
      const again = await storage.open();
      try {
        const reopened = await again.open('kept');
        expect(reopened.header).toEqual(log.header);
        expect((await reopened.head()).length).toBe(written.length);
        expect(await reopened.read(0, written.length)).toEqual(written);
        const [listed] = await again.list();
        expect(listed).toMatchObject({ length: written.length, error: undefined });
      } finally {
        await again.close();
      }
    });

    it('lists each session with its length and last event time', async () => {
      const { backend } = context();
      const a = await backend.create({ cwd: '/w', sessionId: 'a' });
      await backend.create({ cwd: '/w', sessionId: 'b' });
      const written = await appendAll(a, conversation(3));
      const byId = Object.fromEntries((await backend.list()).map((s) => [s.header.sessionId, s]));
      expect(Object.keys(byId).sort()).toEqual(['a', 'b']);
      expect(byId.a!.length).toBe(written.length);
      expect(byId.a!.updatedAt).toEqual(timestampDate(written.at(-1)!.time!));
      expect(byId.b!.length).toBe(0);
    });
  });
}
