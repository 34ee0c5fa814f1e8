import { sessionTree } from '@dsh/client-live';
import type { SessionSummary } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { deleteArmMs } from '../src/ui/session-manage.js';
import { setup } from './key-state.js';

const summary = (id: string, extra: Partial<SessionSummary> = {}) =>
  ({
    id,
    title: `T ${id}`,
    cwd: '/p',
    error: '',
    running: false,
    parentId: '',
    ...extra,
  }) as SessionSummary;

/** A client with the list focused on s1 of three sessions (s3 archived). */
function listed(extra: Partial<SessionSummary> = {}) {
  const t = setup({ focus: 'sessions' });
  const sessions = new Map(
    [summary('s1', extra), summary('s2'), summary('s3', { archived: true })].map((s) => [s.id, s]),
  );
  t.state.list = { ...t.state.list!, sessions, rows: sessionTree(sessions.values()) };
  t.state.listCursor = 0;
  return t;
}
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('onSessions(): managing sessions', () => {
  it.each(['Delete it now, yes', 'ARCHIVE THAT', 'Rename: y', 'DAR y'])(
    'text typed into the list (%j) renames, archives and deletes nothing',
    async (text) => {
      const t = listed();
      t.type(text);
      await settle();
      expect(t.calls).toEqual([]);
      expect(t.state.manage).toBeUndefined();
    },
  );

  it.each([
    ['M-r', 'New name', { title: 'New name' }],
    ['f2', '', { title: 'T s1' }],
  ])('%s then %j and Enter renames', async (key, typed, change) => {
    const t = listed();
    t.press(key);
    expect(t.state.manage).toMatchObject({ kind: 'rename', sessionId: 's1', was: 'T s1' });
    if (typed !== '') t.press('C-u');
    t.type(typed);
    t.press('return');
    await settle();
    expect(t.calls).toEqual([`update s1 ${JSON.stringify(change)}`]);
  });

  it('Esc leaves a rename without a call', () => {
    const t = listed();
    t.press('M-r', 'x', 'escape');
    expect(t.calls).toEqual([]);
    expect(t.state.manage).toBeUndefined();
  });

  it.each([
    [false, { archived: true }],
    [true, { archived: false }],
  ])('M-a on a session archived=%s asks for %j', async (archived, change) => {
    const t = listed({ archived });
    t.state.showArchived = true;
    t.press('M-a');
    await settle();
    expect(t.calls).toEqual([`update s1 ${JSON.stringify(change)}`]);
  });

  it('. shows and hides archived sessions', () => {
    const t = listed();
    const ids = () => t.state.list!.rows.length;
    expect(ids()).toBe(3);
    t.press('.');
    expect(t.state.showArchived).toBe(true);
    t.press('.');
    expect(t.state.showArchived).toBe(false);
  });

  it.each([
    ['y at once', 0, 'y', []],
    ['another key', deleteArmMs + 1, 'x', []],
    ['y after the arming delay', deleteArmMs + 1, 'y', ['remove s1']],
  ])('M-d then %s', async (_what, wait, key, calls) => {
    const t = listed();
    t.press('M-d');
    expect(t.state.manage).toMatchObject({ kind: 'delete', title: 'T s1' });
    t.advance(wait);
    t.press(key);
    await settle();
    expect(t.calls).toEqual(calls);
    expect(t.state.manage).toBeUndefined();
    expect(t.state.flash?.text).toMatch(calls.length > 0 ? /^deleted "T s1"/ : /^kept "T s1"/);
  });
});

describe('onInput(): a session this client cannot prompt', () => {
  it.each([
    [{ parentId: 'p' }, "a sub-agent's session"],
    [{ readOnly: true, origin: 'codex' }, 'imported from codex'],
    [{ readOnly: true }, 'a fixture session'],
  ])('%j: typing sends nothing and says %s', async (extra, why) => {
    const t = setup();
    const known = t.state.list!.sessions.get('s1')!;
    t.state.list = {
      ...t.state.list!,
      sessions: new Map([['s1', { ...known, ...extra } as SessionSummary]]),
    };
    t.type('hi');
    t.press('return');
    await settle();
    expect(t.calls).toEqual([]);
    expect(t.state.composer.text).toBe('');
    expect(t.state.flash?.text).toContain(why);
  });
});
