import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchTui, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui everyday end-to-end tests');

/** The composer's row (the one above the key hints). */
const composerRow = (screen: string) => screen.trimEnd().split('\n').at(-2) ?? '';

describe.skipIf(skip)('dsh tui in tmux: what an all-day user expects', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;
  const ids = new Map<string, string>();

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-everyday-'));
    host = await startTestHost({ dataDir });
    for (const [title, user, close] of [
      ['Copy desk', 'copy me please', 'Copied text lives here.'],
      ['Harbour log', 'count the boats', 'Twelve boats today.'],
    ] as const) {
      const journal = await host.store.create({ cwd: dataDir, title, model: 'demo' });
      await journal.append(agentTurn({ turn: 1, user, close }));
      ids.set(title, journal.header.sessionId);
    }
  });
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const launch = (sessionId: string, options: Parameters<typeof launchTui>[2] = {}) => {
    tmux?.kill();
    tmux = launchTui(host.url, sessionId, options);
    return tmux;
  };
  const idOf = (title: string) => ids.get(title) ?? '';

  it('window title, relative times, ↑ recalls the last prompt, C-o filters, y copies via OSC 52', async () => {
    const t = launch(idOf('Copy desk'), { cols: 100, rows: 30 });
    t.command('set-option', '-s', 'set-clipboard', 'on');
    await t.waitFor(
      (s) => s.includes('Copied text lives here.') && s.includes('write a prompt'),
      'the session',
    );
    expect(t.display('#{pane_title}')).toBe('dsh: Copy desk');
    // The session list shows each session's age.
    const list = t.capture().split('\n').slice(1, 4).join('\n');
    expect(list).toMatch(/Copy desk\s+(now|\d+s)/);

    // ↑ in the empty composer recalls this session's last prompt; ↓ past it empties it.
    t.keys('Up');
    await t.waitFor((s) => composerRow(s).includes('› copy me please'), 'the recalled prompt');
    t.keys('Down');
    await t.waitFor((s) => composerRow(s).includes('write a prompt'), 'the empty composer');

    // y in the conversation copies the selected message through OSC 52 (a tmux buffer here).
    t.keys('Escape');
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    t.keys('y');
    await t.waitFor((s) => s.includes('to the clipboard'), 'the copy confirmed');
    expect(t.command('show-buffer')).toBe('Copied text lives here.');

    // C-o: the picker filters as you type and opens the match.
    t.keys('C-o');
    await t.waitFor((s) => s.includes('Open session'), 'the picker');
    t.text('harb');
    const picked = await t.waitFor((s) => s.includes('1 of 2'), 'the filtered picker');
    expect(picked).toContain('Harbour log');
    expect(picked).not.toContain('Copy desk');
    t.keys('Enter');
    await t.waitFor(
      (s) => (s.split('\n')[0] ?? '').includes('Harbour log') && s.includes('Twelve boats'),
      'the picked session',
    );
    await t.waitFor(() => t.display('#{pane_title}') === 'dsh: Harbour log', 'the new title');
  });

  it('a waiting session is marked ⚑, the status line counts the working time, --bell rings', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Bell tower', model: 'demo' });
    const t = launch(journal.header.sessionId, { env: 'DSH_TUI_BELL=1', cols: 100, rows: 30 });
    // tmux flags a bell of a detached session's window (window_bell_flag).
    t.command('set-option', '-g', 'monitor-bell', 'on');
    t.command('set-option', '-g', 'bell-action', 'any');
    await t.waitFor(
      (s) => s.includes('Bell tower') && s.includes('write a prompt'),
      'the session',
      30_000,
    );
    expect(t.display('#{window_bell_flag}')).toBe('0');
    t.text('hello demo');
    t.keys('Enter');
    const waiting = await t.waitFor(
      (s) => s.includes('Allow bash?') && /● working \d+s/.test(s),
      'the approval while the turn works',
      30_000,
    );
    const row = waiting
      .split('\n')
      .find((line) => line.includes('Bell tower') && !line.startsWith('dsh'));
    expect(row?.trimStart().startsWith('⚑')).toBe(true);
    expect(waiting).toContain('1 waiting for you');
    // The status line counts on: a later redraw shows a second or more.
    await t.waitFor((s) => /● working [1-9]\d*s/.test(s), 'the working time counting', 10_000);
    expect(t.display('#{window_bell_flag}')).toBe('1');
    t.keys('C-c', 'C-c');
    await t.waitFor((s) => /turn \d+ interrupted/.test(s), 'the stopped turn', 30_000);
  });
});
