import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionList, type SessionList } from '../src/index.js';
import { startRealHost, until, type RealHost } from './real-host.js';

const fast = { backoff: { initialMs: 20, maxMs: 200, factor: 2 }, idleTimeoutMs: 2_000 };

let host: RealHost;
let list: SessionList;

beforeAll(async () => {
  host = await startRealHost();
  list = createSessionList({ client: host.client, ...fast });
});
afterAll(async () => {
  list.close();
  await host.close();
});

describe('createSessionList()', () => {
  it('opens with the snapshot of every session, lineage flattened', async () => {
    await until('loaded', () => list.state.loaded);
    expect(list.state.connection.kind).toBe('live');
    expect(list.state.sessions.has('long-paging')).toBe(true);
    expect(list.state.rows).toHaveLength(list.state.sessions.size);
    expect(list.state.rows.every((row) => row.depth === 0 || !row.orphan)).toBe(true);
  });

  it('adds created sessions, children right under their parent', async () => {
    const parent = (await host.client.createSession({ cwd: host.dir })).session?.id ?? '';
    const child = (await host.client.createSession({ cwd: host.dir, parentId: parent })).session
      ?.id;
    await until('both listed', () => list.state.rows.some((row) => row.summary.id === child));
    const ids = list.state.rows.map((row) => row.summary.id);
    const at = ids.indexOf(parent);
    expect(ids[at + 1]).toBe(child);
    expect(list.state.rows[at + 1]?.depth).toBe(1);
  });

  it('converges after a host restart from the new snapshot', async () => {
    const before = list.state.sessions.size;
    await host.stop();
    await until('reconnecting', () => list.state.connection.kind === 'reconnecting');
    await host.start();
    await until('live again', () => list.state.connection.kind === 'live');
    const created = (await host.client.createSession({ cwd: host.dir })).session?.id;
    await until('new session listed', () => list.state.sessions.has(created ?? '?'));
    expect(list.state.sessions.size).toBe(before + 1);
  });
});

describe('createSessionList({ includeArchived })', () => {
  it.each([
    [false, 'drops an archived session and lists it again when unarchived'],
    [true, 'keeps an archived session, marked archived'],
  ])('includeArchived %s: %s', async (includeArchived) => {
    const watched = createSessionList({ client: host.client, ...fast, includeArchived });
    try {
      const id = (await host.client.createSession({ cwd: host.dir })).session?.id ?? '';
      await until('listed', () => watched.state.sessions.has(id));
      await host.client.updateSession({ sessionId: id, archived: true });
      await until('archive seen', () =>
        includeArchived
          ? watched.state.sessions.get(id)?.archived === true
          : !watched.state.sessions.has(id),
      );
      await host.client.updateSession({ sessionId: id, archived: false });
      await until('unarchive seen', () => watched.state.sessions.get(id)?.archived === false);
    } finally {
      watched.close();
    }
  });
});
