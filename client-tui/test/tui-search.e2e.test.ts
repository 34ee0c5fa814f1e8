import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ripgrepAbsent, writeNeedleJournal } from '@dsh/journal-file/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversationPane, launchTui, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip =
  tmuxMissing('the client-tui search end-to-end test') ||
  ripgrepAbsent('the client-tui search end-to-end test');

describe.skipIf(skip)('dsh tui in tmux: search', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-search-'));
    await writeNeedleJournal(join(dataDir, 'million.jsonl'), {
      sessionId: 'million',
      events: 1_000_000,
      needleSeq: 100_000,
      needle: 'the flux capacitor needs 1.21 gigawatts',
    });
    host = await startTestHost({ dataDir });
  }, 120_000);
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('/ finds a prompt 900,000 events back, pages it in and selects it; G goes back to live', async () => {
    const t = (tmux = launchTui(host.url, 'million', { cols: 100, rows: 30 }));
    await t.waitFor(
      (s) => s.includes('nothing changed') && s.includes('following'),
      'the tail',
      60_000,
    );
    t.keys('Tab');
    t.keys('/');
    await t.waitFor((s) => s.includes('search›'), 'the query line');
    t.text('capacitor');
    t.keys('Enter');
    const found = await t.waitFor(
      (s) => s.includes('flux capacitor') && s.includes('hit 1 of 1'),
      'the hit paged in',
      60_000,
    );
    const selected = conversationPane(found)
      .split('\n')
      .find((row) => row.includes('flux capacitor'));
    expect(selected?.trimStart().startsWith('▌')).toBe(true);
    expect(found).toContain('seq 100000');
    expect(conversationPane(found)).toMatchSnapshot();
    t.keys('G');
    await t.waitFor(
      (s) => !s.includes('flux capacitor') && s.includes('following'),
      'the live tail',
      60_000,
    );
  }, 240_000);
});
