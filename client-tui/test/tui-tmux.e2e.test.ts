import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantMessage, turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationPane, launchTui, pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui end-to-end test');

describe.skipIf(skip)('dsh tui in tmux against a real host', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-e2e-'));
    host = await startTestHost({ dataDir, fixtureDirs: [journalsDir] });
  });
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const launch = (sessionId: string) => {
    tmux?.kill();
    tmux = launchTui(host.url, sessionId);
    return tmux;
  };

  it('opens a session and pages older history with g / PgUp', async () => {
    const t = launch('long-paging');
    await t.waitFor(
      (s) => s.includes('Long session for paging') && s.includes('following'),
      'the tail page',
    );
    expect(conversationPane(t.capture())).not.toContain('(request 1)');
    t.keys('Tab'); // composer -> conversation
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    await t.waitFor(
      (s) => {
        if (conversationPane(s).includes('(request 1).')) return true;
        t.keys('g');
        return false;
      },
      'the first request after loading every older page',
      40_000,
    );
    t.keys('End');
    await t.waitFor((s) => s.includes('following'), 'following again');
  });

  it('follows the bottom while the host appends, and survives a resize', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Live follow', model: 'demo' });
    const id = journal.header.sessionId;
    const t = launch(id);
    await t.waitFor((s) => s.includes('Live follow'), 'the new session');
    await journal.append([userMessage('live line one'), turnStart(1)]);
    await t.waitFor((s) => s.includes('live line one'), 'the first appended message');
    await journal.append([assistantMessage({ turn: 1 }, ['live reply two']), turnEnd(1)]);
    await t.waitFor((s) => s.includes('live reply two'), 'the second appended message');

    t.resize(100, 30);
    // 100 columns give the session list 28 cells; 80 columns give it 22.
    const wide = await t.waitFor(
      (s) => s.split('\n')[1]?.indexOf('│') === 28,
      'the resized layout',
    );
    expect(wide.split('\n').length).toBeGreaterThanOrEqual(30);
    expect(wide).toContain('live reply two');
    t.resize(80, 24);
    await t.waitFor((s) => s.split('\n')[1]?.indexOf('│') === 22, 'the 80x24 layout');
  });

  it('redraws a resize line for line as a fresh client at that size draws it', async () => {
    const ready = (s: string) => s.includes('Showcase') && s.includes('following');
    const t = launch('showcase');
    await t.waitFor(ready, 'the showcase at 80x24');
    for (const [cols, rows] of [
      [120, 35],
      [64, 18],
    ] as const) {
      t.resize(cols, rows);
      await t.waitFor(
        (s) => ready(s) && s.trimEnd().split('\n').length === rows,
        `${cols}x${rows}`,
      );
      const fresh = launchTui(host.url, 'showcase', { cols, rows });
      try {
        await fresh.waitFor(ready, `a fresh client at ${cols}x${rows}`);
        await pause(300);
        expect(t.capture()).toBe(fresh.capture());
      } finally {
        fresh.kill();
      }
    }
  });

  it('sends, answers an approval in its prompt, steers and stops with the offline demo model', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Demo agent', model: 'demo' });
    const t = launch(journal.header.sessionId);
    await t.waitFor(
      (s) => s.includes('Demo agent') && s.includes('write a prompt'),
      'the empty session, focus in the composer',
    );
    t.text('hello demo');
    t.keys('Enter');
    await t.waitFor((s) => s.includes('› hello demo'), 'the sent prompt');
    await t.waitFor((s) => s.includes('Allow bash? [y] once'), 'the approval prompt', 30_000);
    await pause(700); // the prompt's keys arm a moment after it takes focus
    t.keys('y');
    await t.waitFor((s) => s.includes('allowed bash'), 'the approval answered');
    await t.waitFor((s) => /exit \d/.test(s), 'the approved command finishing', 30_000);
    // The next shell command waits for approval; steering joins the turn at its next step.
    await t.waitFor((s) => s.includes('Allow bash?'), 'the second approval request', 30_000);
    await pause(700);
    t.text('please steer'); // typed at the prompt: it goes to the composer, answers nothing
    t.keys('C-s');
    // The composer is empty again; the steer shows in the queue above it until it joins.
    await t.waitFor(
      (s) => s.split('\n').some((row) => row.startsWith('› write a prompt')),
      'the sent (cleared) draft',
    );
    t.keys('Tab'); // composer -> prompt
    t.keys('n');
    await t.waitFor((s) => s.includes('steer: please steer'), 'the steering message', 30_000);
    t.keys('C-c');
    await t.waitFor((s) => s.includes('Press Ctrl+C again to stop'), 'the stop confirmation');
    t.keys('C-c');
    await t.waitFor((s) => /turn \d+ interrupted/.test(s), 'the stopped turn', 30_000);
  });

  it('says it is disconnected while the host is down and resyncs after a restart', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Restart me', model: 'demo' });
    const id = journal.header.sessionId;
    await journal.append([userMessage('before the restart')]);
    const t = launch(id);
    await t.waitFor(
      (s) => s.includes('before the restart') && s.includes('following'),
      'the session',
    );
    const port = host.port;
    await host.close();
    await t.waitFor((s) => s.includes('disconnected'), 'the disconnected status');
    host = await startTestHost({ dataDir, fixtureDirs: [journalsDir], port });
    const reopened = await host.store.open(id);
    await reopened.append([userMessage('after the restart')]);
    await t.waitFor(
      (s) =>
        s.includes('after the restart') &&
        s.includes('before the restart') &&
        !s.includes('disconnected'),
      'the resynced session',
      20_000,
    );
  });
});
