import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionClient } from '../src/index.js';
import { launchTui, pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui session management end-to-end tests');

/** The session list pane: the text left of the separator on the body rows. */
const listPane = (screen: string, rows: number) =>
  screen
    .split('\n')
    .slice(1, rows - 3)
    .map((line) => (line.split('│')[0] ?? '').trimEnd());

/** True when an SGR sequence of `text` (a `capture-pane -e` row) turns on inverse. */
function inverse(text: string): boolean {
  // eslint-disable-next-line no-control-regex -- SGR sequences from tmux
  for (const [, params = ''] of text.matchAll(/\x1b\[([\d;]*)m/g)) {
    const codes = params.split(';');
    for (let i = 0; i < codes.length; i++) {
      if (codes[i] === '38' || codes[i] === '48') i += codes[i + 1] === '5' ? 2 : 4;
      else if (codes[i] === '7') return true;
    }
  }
  return false;
}

/** Moves the list cursor (j / k) onto the row that holds `title`. */
async function moveTo(t: TmuxSession, title: string, rows: number): Promise<void> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const styled = t
      .capture(true)
      .split('\n')
      .slice(1, rows - 3);
    const cursor = styled.findIndex((row) => inverse(row.split('│')[0] ?? ''));
    const target = listPane(t.capture(), rows).findIndex((row) => row.includes(title));
    if (cursor >= 0 && cursor === target) return;
    t.keys(cursor > target ? 'k' : 'j');
    await pause(150);
  }
  throw new Error(`the cursor never reached ${title}:\n${t.capture()}`);
}

describe.skipIf(skip)('dsh tui session management in tmux against a real host', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-sessions-'));
    host = await startTestHost({ dataDir });
  });
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const create = async (title: string) =>
    (await host.store.create({ cwd: dataDir, title, model: 'demo' })).header.sessionId;
  /** Every session the host has, archived ones too, as `title` or `title (archived)`. */
  const hostSessions = async () => {
    const { sessions } = await createSessionClient(host.url).listSessions({
      includeArchived: true,
    });
    return sessions.map((s) => `${s.title}${s.archived ? ' (archived)' : ''}`).sort();
  };
  /** Tab from the composer to the session list. */
  const toList = async (t: TmuxSession) => {
    t.keys('Tab');
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    t.keys('Tab');
    await t.waitFor((s) => s.includes('M-r rename'), 'the session list focused');
  };

  for (const [cols, rows] of [
    [80, 24],
    [140, 40],
  ] as const) {
    it(`renames, archives, shows archived, unarchives and deletes at ${cols}x${rows}`, async () => {
      const tag = `${cols}`;
      const alpha = await create(`Alpha ${tag}`);
      await create(`Bravo ${tag}`);
      await create(`Charlie ${tag}`);
      tmux?.kill();
      const t = launchTui(host.url, alpha, { cols, rows });
      tmux = t;
      await t.waitFor(
        (s) => s.includes(`Charlie ${tag}`) && s.includes('write a prompt'),
        'the list',
      );
      await toList(t);
      const before = await hostSessions();

      // Text typed into the list by mistake renames, archives and deletes nothing.
      t.text('Delete this, archive that, edit it: yes'); // no n: n makes a session
      await pause(600);
      expect(t.capture()).not.toMatch(/Delete "|Rename "/);
      expect(await hostSessions()).toEqual(before);

      // Rename the session under the cursor.
      t.keys('Escape');
      await toList(t);
      await moveTo(t, `Bravo ${tag}`, rows);
      t.keys('M-r');
      await t.waitFor((s) => s.includes(`Rename "Bravo ${tag}"`), 'the rename bar');
      t.keys('C-u');
      t.text(`Bravo renamed ${tag}`);
      t.keys('Enter');
      await t.waitFor((s) => s.includes(`renamed to "Bravo renamed ${tag}"`), 'the rename');
      expect(await hostSessions()).toContain(`Bravo renamed ${tag}`);
      await t.waitFor(
        (s) => listPane(s, rows).some((row) => row.includes(`Bravo renamed`)),
        'the new title in the list',
      );

      // Archive it: it leaves the list, `.` shows it again, M-a unarchives.
      t.keys('M-a');
      await t.waitFor((s) => s.includes(`archived "Bravo renamed ${tag}"`), 'the archive');
      await t.waitFor(
        (s) => !listPane(s, rows).some((row) => row.includes(`Bravo renamed ${tag}`)),
        'the archived session hidden',
      );
      expect(await hostSessions()).toContain(`Bravo renamed ${tag} (archived)`);
      t.keys('.');
      await t.waitFor(
        (s) => listPane(s, rows).some((row) => row.includes(`◌ Bravo renamed ${tag}`)),
        'archived sessions shown',
      );
      await moveTo(t, `◌ Bravo renamed ${tag}`, rows);
      t.keys('M-a');
      await t.waitFor((s) => s.includes(`unarchived "Bravo renamed ${tag}"`), 'the unarchive');
      expect(await hostSessions()).toContain(`Bravo renamed ${tag}`);
      t.keys('.');
      await t.waitFor((s) => s.includes('archived sessions hidden'), 'archived hidden again');

      // Delete asks, naming the session; any other key keeps it, a y at once keeps it too.
      await moveTo(t, `Charlie ${tag}`, rows);
      t.keys('M-d');
      await t.waitFor((s) => s.includes(`Delete "Charlie ${tag}"?`), 'the delete question');
      t.keys('x');
      await t.waitFor((s) => s.includes(`kept "Charlie ${tag}"`), 'kept');
      t.keys('M-d', 'y');
      await t.waitFor(
        (s) => s.includes(`kept "Charlie ${tag}"`) && !s.includes('Delete "'),
        'kept',
      );
      expect(await hostSessions()).toContain(`Charlie ${tag}`);
      t.keys('Delete');
      await t.waitFor((s) => s.includes(`Delete "Charlie ${tag}"?`), 'the delete question');
      await pause(700);
      t.keys('y');
      await t.waitFor((s) => s.includes(`deleted "Charlie ${tag}"`), 'the delete');
      expect(await hostSessions()).not.toContain(`Charlie ${tag}`);
      await t.waitFor(
        (s) => !listPane(s, rows).some((row) => row.includes(`Charlie ${tag}`)),
        'the deleted session gone from the list',
      );
    });
  }
});
