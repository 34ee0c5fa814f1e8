import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exitMarker } from '@dsh/card-models/contract';
import { agentTurn } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionClient, textWidth } from '../src/index.js';
import { launchTui, pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import { startTmux, type TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui hazard end-to-end tests');

/** Columns tmux itself gives `text` (printed by a shell, measured by its cursor). */
async function tmuxWidth(text: string): Promise<number> {
  const t = startTmux(`printf '%s' '${text}'; read x`, 80, 5);
  try {
    await t.waitFor((s) => s.trim() !== '', 'the printed text');
    return Number(t.display('#{cursor_x}'));
  } finally {
    t.kill();
  }
}

/** Rows 1..n of the body whose list separator is not at `column` (measured in cells). */
function misaligned(screen: string, column: number, bodyRows: number): string[] {
  return screen
    .split('\n')
    .slice(1, 1 + bodyRows)
    .filter((row) => {
      const at = row.indexOf('│');
      return at < 0 || textWidth(row.slice(0, at)) !== column;
    });
}

/** Rows wider than the terminal (a glyph drawn wider than the client counted). */
const overwide = (screen: string, cols: number) =>
  screen.split('\n').filter((row) => textWidth(row) > cols);

/** The attributes in force where `text` starts in `row` (a `capture-pane -e` row). */
function attributesAt(row: string, text: string): Set<string> {
  const on = new Set<string>();
  const head = row.slice(0, row.indexOf(text));
  // eslint-disable-next-line no-control-regex -- SGR sequences from tmux
  for (const [, params = ''] of head.matchAll(/\x1b\[([\d;]*)m/g)) {
    const codes = params === '' ? ['0'] : params.split(';');
    for (let i = 0; i < codes.length; i++) {
      const code = codes[i];
      if (code === '38' || code === '48') i += codes[i + 1] === '5' ? 2 : 4;
      else if (code === '0') on.clear();
      else if (code === '1') on.add('bold');
      else if (code === '2') on.add('dim');
      else if (code === '3') on.add('italic');
      else if (code === '22') {
        on.delete('bold');
        on.delete('dim');
      } else if (code === '23') on.delete('italic');
    }
  }
  return on;
}

/** Waits until the session titled `title` is open (its title in the header, the composer ready). */
async function opened(t: TmuxSession, title: string): Promise<void> {
  await t.waitFor(
    (s) => (s.split('\n')[0] ?? '').includes(title) && s.includes('write a prompt'),
    `the session ${title}`,
  );
}

/** Moves focus to the composer from wherever it is (Esc, then i when Esc left it). */
async function toComposer(t: TmuxSession): Promise<void> {
  t.keys('Escape');
  await pause(200);
  if (!(t.capture().trimEnd().split('\n').at(-1) ?? '').includes('C-j newline')) t.keys('i');
  await t.waitFor(
    (s) => (s.trimEnd().split('\n').at(-1) ?? '').includes('C-j newline'),
    'the composer',
  );
}

const emojiLine = '🎉 party ✅ ok 🚀 launch 👍 fine';

describe.skipIf(skip)('dsh tui hazards in tmux against a real host', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-hazards-'));
    host = await startTestHost({ dataDir });
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
  const demoSession = async (title: string) =>
    (await host.store.create({ cwd: dataDir, title, model: 'demo' })).header.sessionId;
  const userTexts = async (sessionId: string) => {
    const page = await createSessionClient(host.url).page({ sessionId, maxMessages: 50 });
    return page.events.flatMap((entry) => {
      const payload = entry.event?.payload;
      if (payload?.case !== 'userMessage') return [];
      return payload.value.content.flatMap((block) =>
        block.block.case === 'text' ? [block.block.value.text] : [],
      );
    });
  };

  it('emoji keep every border aligned, also under and after the details overlay', async () => {
    // The widths the client lays out with are the widths tmux draws.
    for (const glyph of ['🎉', '✅', '🚀', '👍', '中']) {
      expect(await tmuxWidth(glyph)).toBe(textWidth(glyph));
      expect(textWidth(glyph)).toBe(2);
    }
    const journal = await host.store.create({ cwd: dataDir, title: 'Emoji 🎉 party ✅ 🚀' });
    await journal.append(
      agentTurn({
        turn: 1,
        user: 'Celebrate 🎉 please',
        reasoning: 'Thinking about 🎉 and ✅',
        say: `Done ${'🎉✅🚀👍 '.repeat(12)}`,
        calls: [
          {
            id: 'call_emoji',
            name: 'bash',
            args: { command: 'cat party.txt', description: 'Show the party 🎉' },
            result: {
              output: `${Array.from({ length: 10 }, () => emojiLine).join('\n')}\n${exitMarker(0)}`,
            },
          },
        ],
        close: '✅ all good 👍 🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉🎉',
      }),
    );
    const t = launch(journal.header.sessionId);
    const body = 24 - 4;
    const first = await t.waitFor((s) => s.includes('all good'), 'the emoji session');
    expect(misaligned(first, 22, body)).toEqual([]);
    expect(overwide(first, 80)).toEqual([]);

    t.keys('Tab'); // composer -> conversation
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    t.keys('k'); // select the bash card
    await t.waitFor((s) => s.includes('▌'), 'the selected card');
    t.keys('Enter');
    const overlay = await t.waitFor((s) => s.startsWith('Details'), 'the details overlay');
    expect(overlay).toContain(emojiLine);
    expect(overwide(overlay, 80)).toEqual([]);
    // Nothing of the panes below shows through: no list separator, no session title.
    const overlayRows = overlay.split('\n').slice(0, 23);
    expect(overlayRows.filter((row) => row.includes('│ ') && row.includes('Emoji'))).toEqual([]);
    for (const row of overlayRows.filter((r) => r.includes('party ✅'))) {
      expect(row.trim()).toMatch(/^│ 🎉 party ✅ ok 🚀 launch 👍 fine$/);
    }

    t.keys('Escape');
    const after = await t.waitFor((s) => !s.startsWith('Details'), 'the overlay closed');
    expect(misaligned(after, 22, body)).toEqual([]);
    expect(overwide(after, 80)).toEqual([]);
    for (const key of ['k', 'k', 'j', 'g', 'G']) {
      t.keys(key);
      await pause(150);
      expect(misaligned(t.capture(), 22, body)).toEqual([]);
    }
  });

  it('dim and italic reach the terminal: reasoning and dim tool output', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Styles' });
    await journal.append(
      agentTurn({
        turn: 1,
        user: 'Show styles',
        reasoning: 'quietly reasoning here',
        calls: [
          {
            id: 'call_dim',
            name: 'bash',
            args: { command: 'styles' },
            result: { output: `\x1b[2mdim tool line\x1b[0m\nplain tool line\n${exitMarker(0)}` },
          },
        ],
        close: 'Answer text.',
      }),
    );
    const t = launch(journal.header.sessionId);
    await t.waitFor((s) => s.includes('Answer text.'), 'the styled session');
    const rows = t.capture(true).split('\n');
    const reasoning = rows.find((row) => row.includes('quietly reasoning')) ?? '';
    expect([...attributesAt(reasoning, 'quietly reasoning')].sort()).toEqual(['dim', 'italic']);
    const dimOutput = rows.find((row) => row.includes('dim tool line')) ?? '';
    expect(attributesAt(dimOutput, 'dim tool line').has('dim')).toBe(true);
    const plainOutput = rows.find((row) => row.includes('plain tool line')) ?? '';
    expect(attributesAt(plainOutput, 'plain tool line').has('dim')).toBe(false);
    const answer = rows.find((row) => row.includes('Answer text.')) ?? '';
    expect([...attributesAt(answer, 'Answer text.')]).toEqual([]);
  });

  it('a multi-line paste is one prompt; the editor edits the draft; paste mode ends on exit', async () => {
    const editor = join(dataDir, 'editor.sh');
    writeFileSync(editor, '#!/bin/sh\nprintf "edited in the editor\\n" >> "$1"\n');
    chmodSync(editor, 0o755);
    const id = await demoSession('Paste');
    const t = launch(id, { env: `EDITOR=${editor}`, after: 'cat -v' });
    await opened(t, 'Paste');
    t.paste('first line\nsecond line\nthird line');
    const pasted = await t.waitFor((s) => s.includes('third line'), 'the pasted draft');
    expect(pasted).toMatch(/› first line\n {2}second line\n {2}third line\n/);
    t.keys('Enter');
    await t.waitFor((s) => s.includes('Allow bash?'), 'the demo turn', 30_000);
    expect(await userTexts(id)).toEqual(['first line\nsecond line\nthird line']);

    await toComposer(t);
    t.text('draft');
    t.keys('C-g');
    await t.waitFor((s) => s.includes('edited in the editor'), 'the draft edited in $EDITOR');
    t.keys('C-x', 'C-e');
    await t.waitFor(
      (s) => s.split('edited in the editor').length === 3,
      'the draft edited again (C-x C-e)',
    );
    expect(t.capture()).toMatch(/› draft\n {2}edited in the editor\n {2}edited in the editor/);
    t.keys('M-Enter');
    t.text('more');
    await t.waitFor((s) => /\n {2}more\n/.test(s), 'a line added with Alt+Enter');

    t.keys('C-c', 'C-c'); // stop the demo turn
    await t.waitFor((s) => /turn \d+ interrupted/.test(s), 'the stopped turn', 30_000);
    await t.waitFor((s) => !s.includes('● running'), 'the idle session');
    t.keys('C-c', 'C-c'); // nothing runs: quit
    await t.waitFor((s) => !s.includes('dsh 127.0.0.1'), 'the client gone');
    t.paste('after-exit\n');
    const shell = await t.waitFor((s) => s.includes('after-exit'), 'the paste in the shell');
    expect(shell).not.toContain('[200~');
  });

  it('nothing irreversible happens on keys typed in the wrong place', async () => {
    const id = await demoSession('Careful keys');
    const t = launch(id);
    await opened(t, 'Careful keys');
    t.text('hello demo');
    t.keys('Enter');
    await t.waitFor((s) => s.includes('answer with the keys above'), 'the focused prompt', 30_000);
    await pause(700);
    t.text('please'); // "a" would allow for the session, "s" stopped the turn
    await t.waitFor((s) => s.includes('› please'), 'the word typed into the composer');
    t.keys('Escape'); // composer -> conversation: leaving it stops nothing
    // (the next key waits for the pane: a key right after Esc would arrive as Alt+key)
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    t.text('asynxtq');
    await t.waitFor((s) => s.includes('Quit? [y] quit'), 'q asking once while a turn runs');
    t.text('n');
    await pause(500);
    const screen = t.capture();
    expect(screen).toContain('Allow bash?');
    expect(screen).toContain('● running');
    expect(screen).not.toMatch(/allowed|denied|interrupted|stop requested/);

    t.keys('C-c');
    await t.waitFor((s) => s.includes('Press Ctrl+C again to stop'), 'the stop confirmation');
    await t.waitFor((s) => !s.includes('Press Ctrl+C again'), 'the confirmation expired', 6_000);
    expect(t.capture()).toContain('● running');

    t.keys('Tab', 'Tab'); // conversation -> sessions -> composer
    t.keys('Tab'); // composer -> prompt
    t.keys('n');
    await t.waitFor((s) => s.includes('denied bash'), 'the deny from the prompt');
    await t.waitFor((s) => !s.includes('denied bash'), 'the message expired by itself', 10_000);
    t.keys('C-c', 'C-c');
    await t.waitFor((s) => /turn \d+ interrupted/.test(s), 'the stopped turn', 30_000);
  });

  it('a session made with n shows its working directory on its cards at once', async () => {
    const t = launch(await demoSession('Older'));
    await opened(t, 'Older');
    t.keys('Tab', 'Tab'); // composer -> conversation -> sessions
    await t.waitFor((s) => s.includes('n new'), 'the session list focused');
    t.keys('n');
    await t.waitFor(
      (s) => s.includes('write a prompt') && !(s.split('\n')[0] ?? '').includes('Older'),
      'the new session',
    );
    t.text('hello demo');
    t.keys('Enter');
    const card = await t.waitFor((s) => s.includes('$ ls -la'), 'the first bash card', 30_000);
    expect(card).toMatch(/[^\s│] \$ ls -la/);
    t.keys('C-c', 'C-c');
  });

  it('a call stopped with the turn is drawn stopped (■, yellow), never as a failure (✗, red)', async () => {
    const t = launch(await demoSession('Stopped call'));
    await opened(t, 'Stopped call');
    t.text('hello demo');
    t.keys('Enter');
    await t.waitFor((s) => s.includes('Allow bash?'), 'the call waiting for approval', 30_000);
    t.keys('C-c', 'C-c');
    await t.waitFor((s) => /turn \d+ interrupted/.test(s), 'the stopped turn', 30_000);
    const styled = t.capture(true).split('\n');
    const head = styled.find(
      (row) => row.includes('■') && row.includes('List the working directory'),
    );
    expect(head, t.capture()).toBeDefined();
    expect(head).toContain('interrupted');
    expect(t.capture()).not.toContain('✗');
    // The SGR in force where the mark starts: yellow (16 or 256 colours), not red.
    const before = head!.slice(0, head!.indexOf('■'));
    // eslint-disable-next-line no-control-regex -- SGR sequences from tmux
    const last = [...before.matchAll(/\x1b\[([\d;]*)m/g)].at(-1)?.[1] ?? '';
    expect(last).toMatch(/(^|;)(33|38;5;3)(;|$)/);
  });

  it('status follows the connection: no stale running, cursor or send error', async () => {
    const id = await demoSession('Stale status');
    const t = launch(id);
    await opened(t, 'Stale status');
    t.text('hello demo');
    t.keys('Enter');
    await t.waitFor((s) => s.includes('Allow bash?'), 'the running turn', 30_000);
    expect(t.capture()).toContain('● running');
    const port = host.port;
    await host.close();
    try {
      const down = await t.waitFor((s) => s.includes('disconnected:'), 'the disconnected status');
      expect(down.split('\n')[0]).toContain('○ disconnected');
      expect(down).not.toContain('● running');
      expect(down).not.toContain('▍');
      await toComposer(t);
      t.text('are you there');
      t.keys('Enter');
      await t.waitFor((s) => s.includes('not sent:'), 'the send error');
    } finally {
      host = await startTestHost({ dataDir, port });
    }
    const back = await t.waitFor(
      (s) => !s.includes('disconnected') && s.includes('Stale status'),
      'the reconnected client',
      20_000,
    );
    expect(back).not.toContain('not sent:');
    expect(back).toContain('› are you there');
    expect(back.split('\n')[0]).not.toContain('● running');
  });

  it('below 60 columns the hidden session list never takes focus', async () => {
    const t = launch(await demoSession('Narrow'), { cols: 50 });
    await t.waitFor((s) => s.includes('Narrow'), 'the narrow client');
    for (let i = 0; i < 4; i++) {
      t.keys('Tab');
      await pause(150);
      const screen = t.capture();
      expect(screen).not.toContain('n new');
      expect(screen.split('\n')[1]).not.toContain('│');
    }
  });
});
