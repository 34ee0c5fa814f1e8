import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOpenAiProvider } from '@dsh/providers';
import {
  startFakeOpenAiServer,
  textReply,
  toolReply,
  type FakeOpenAiServer,
} from '@dsh/providers/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationPane, launchTui, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui live output test');

/** The numbers of the `line N` rows on a screen, top to bottom. */
function lineNumbers(screen: string): number[] {
  return [...screen.matchAll(/│ line (\d+)\s*$/gm)].map((m) => Number(m[1]));
}

describe.skipIf(skip)('dsh tui shows a running command’s output', () => {
  let dataDir: string;
  let model: FakeOpenAiServer;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-live-'));
    model = await startFakeOpenAiServer();
    const provider = createOpenAiProvider({
      baseUrl: model.baseUrl,
      model: 'fake-model',
      apiKey: 'k',
      retryBaseMs: 1,
    });
    host = await startTestHost({ dataDir, provider, approvals: { bash: 'allow' } });
  });
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('in the conversation and in details, before the command ends', async () => {
    const command = 'for i in $(seq 1 80); do echo line $i; sleep 0.08; done';
    model.reply(
      toolReply([{ id: 'call_live', name: 'bash', args: JSON.stringify({ command }) }]),
      textReply(['Done.']),
    );
    const journal = await host.store.create({
      cwd: dataDir,
      title: 'Live output',
      model: 'fake-model',
    });
    const t = (tmux = launchTui(host.url, journal.header.sessionId, { cols: 100, rows: 30 }));
    await t.waitFor(
      (s) => s.includes('write a prompt') && s.includes('following'),
      'the empty session open, focus in the composer',
    );
    t.text('run it');
    t.keys('Enter');
    // Conversation: the live tail of the running card, consecutive lines, no exit yet.
    const live = await t.waitFor(
      (s) => lineNumbers(s).length > 0 && s.includes('running…'),
      'a line of the running command',
      30_000,
    );
    const seen = lineNumbers(conversationPane(live));
    expect(seen.at(-1)).toBeLessThan(80);
    expect(seen).toEqual(seen.map((_, i) => (seen.at(-1) ?? 0) - seen.length + 1 + i));
    expect(live).not.toMatch(/exit \d/);
    // Details: the whole live output so far, following its end while the command runs.
    t.keys('Tab');
    await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
    t.keys('Enter');
    const first = await t.waitFor(
      (s) => s.includes('running…') && lineNumbers(s).length > 10,
      'the running card’s details',
    );
    const later = await t.waitFor((s) => {
      const last = lineNumbers(s).at(-1) ?? 0;
      return s.includes('running…') && last > 40 && last > (lineNumbers(first).at(-1) ?? 0);
    }, 'details following the live output');
    // Scrolled past the start to keep the newest line (and the running pill) in view.
    expect(lineNumbers(later)[0]).toBeGreaterThan(1);
    t.keys('Escape');
    const settled = await t.waitFor((s) => /exit 0/.test(s), 'the settled command', 30_000);
    expect(lineNumbers(settled).at(-1)).toBe(80);
  });
});
