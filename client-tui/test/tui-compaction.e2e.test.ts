import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assistantMessage, turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationPane, launchTui, tmuxMissing } from './launch-tui.js';
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
});
