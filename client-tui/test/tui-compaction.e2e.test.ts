import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  assistantMessage,
  contextCompaction,
  turnEnd,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationPane, launchTui, pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui compaction end-to-end test');

/** True when the selection gutter marks the row that carries a compaction divider. */
function dividerSelected(screen: string): boolean {
  return conversationPane(screen)
    .split('\n')
    .some((row) => row.trimStart().startsWith('▌') && row.includes('Context compacted'));
}

describe.skipIf(skip)('dsh tui in tmux: compaction', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-compaction-'));
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

  it('draws the fixture compactions as dividers with token counts', async () => {
    const t = launch('compaction');
    const screen = await t.waitFor(
      (s) => s.includes('Context compacted on request') && s.includes('following'),
      'the requested compaction divider',
    );
    expect(conversationPane(screen)).toContain('3,560 → 1,104 tokens');
    expect(screen).toContain('(Enter: summary)');
  });

  it('/compact asks the host, the divider appears and Enter shows its summary', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Compact me', model: 'demo' });
    for (let n = 1; n <= 3; n += 1) {
      await journal.append([
        turnStart(n),
        userMessage(`question ${n}`),
        assistantMessage({ turn: n }, [`answer ${n}`]),
        turnEnd(n),
      ]);
    }
    const t = launch(journal.header.sessionId);
    await t.waitFor(
      (s) => s.includes('answer 3') && s.includes('write a prompt'),
      'the session, focus in the composer',
    );
    t.text('/compact keep the test names');
    t.keys('Enter');
    await t.waitFor(
      (s) => s.includes('Context compacted on request'),
      'the requested compaction',
      30_000,
    );
    expect(conversationPane(t.capture())).not.toContain('› /compact');
    t.keys('Tab'); // composer -> conversation
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    // k selects the item above the bottom one; j comes back to the divider, the last item
    // (the gutter marks a selection only while the pane is not following the bottom).
    t.keys('k');
    await t.waitFor((s) => s.includes('scrolled'), 'an item above the divider selected');
    expect(dividerSelected(t.capture())).toBe(false);
    t.keys('j');
    await t.waitFor((s) => s.includes('following'), 'the divider, the last item, selected');
    t.keys('Enter');
    const details = await t.waitFor(
      (s) => s.includes('asked to keep: “keep the test names”'),
      'the compaction details',
    );
    expect(details).toContain('summarised events 0–11; nothing kept');
    expect(details).toContain('I am the demo model');
  });

  it('pages across a compaction like anywhere else', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Long compacted' });
    const turn = (n: number, answer: string) => [
      turnStart(n),
      userMessage(`ask ${n} end`),
      assistantMessage({ turn: n }, [answer]),
      turnEnd(n),
    ];
    for (let n = 1; n <= 40; n += 1) await journal.append(turn(n, `Before ${n}.`));
    await journal.append([
      contextCompaction('Forty turns of questions, answered.', journal.length, { turn: 40 }),
    ]);
    for (let n = 41; n <= 80; n += 1) await journal.append(turn(n, `After ${n}.`));
    const t = launch(journal.header.sessionId);
    await t.waitFor((s) => s.includes('After 80.') && s.includes('following'), 'the tail');
    t.keys('Tab'); // composer -> conversation
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    // g goes to the top and loads the page before it, once per press, until none is left.
    let screen = t.capture();
    for (let i = 0; i < 20 && !/ask 1 end/.test(screen); i += 1) {
      t.keys('g');
      await pause(300);
      screen = t.capture();
    }
    screen = await t.waitFor(
      (s) => / ask 1 end/.test(s) && !s.includes('older messages'),
      'the first turn, with nothing older',
    );
    // Down a page at a time to the bottom: every turn once, in order, and the divider
    // between turn 40 and turn 41.
    const seen: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      for (const match of conversationPane(screen).matchAll(/ask (\d+) end|Context compacted/g)) {
        const item = match[1] ?? 'divider';
        if (!seen.includes(item)) seen.push(item);
      }
      if (screen.includes('following')) break;
      t.keys('Space');
      await pause(150);
      screen = t.capture();
    }
    const asks = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, i) => String(from + i));
    expect(seen).toEqual([...asks(1, 40), 'divider', ...asks(41, 80)]);
  }, 120_000);
});
