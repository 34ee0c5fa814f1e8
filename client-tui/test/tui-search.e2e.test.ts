import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn } from '@dsh/fixtures';
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
    await writeNeedleJournal(join(dataDir, 'pair.jsonl'), {
      sessionId: 'pair',
      events: 200_000,
      needleSeq: 1_000,
      needle: 'the warp coil hums at dawn',
      moreNeedles: [{ seq: 199_001, text: 'the warp coil hums at dusk' }],
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

  it('/ in the session list searches every session; Enter opens a hit in its session, far back too', async () => {
    for (const [title, text] of [
      ['Garage', 'the capacitor in the garage'],
      ['Lab', 'a capacitor on the lab bench'],
    ] as const) {
      const journal = await host.store.create({ cwd: dataDir, title, model: 'demo' });
      await journal.append(agentTurn({ turn: 1, user: text, close: `${title} answered.` }));
    }
    tmux?.kill();
    const t = (tmux = launchTui(host.url, 'million', { cols: 80, rows: 24 }));
    await t.waitFor((s) => s.includes('nothing changed') && s.includes('Lab'), 'the tail', 60_000);
    t.keys('Tab', 'Tab');
    await t.waitFor((s) => s.includes('/ search all'), 'the session list focused');
    t.keys('/');
    await t.waitFor((s) => s.startsWith('Search all sessions'), 'the search');
    t.text('capacitor');
    t.keys('Enter');
    const listed = await t.waitFor(
      (s) =>
        /\d\+? hits/.test(s) &&
        s.includes('Garage') &&
        s.includes('Lab') &&
        s.includes('seq 100000'),
      'hits of three sessions',
      60_000,
    );
    expect(listed).toContain('the capacitor in the garage');
    expect(listed).toContain('a capacitor on the lab bench');
    // Open the far hit of the million-event session: its page comes in, the hit selected.
    const rows = listed.split('\n');
    const far = rows.findIndex((row) => row.includes('seq 100000'));
    const first = rows.findIndex((row) => row.includes('▌'));
    for (let i = 0; i < (far - first) / 2; i++) t.keys('Down');
    t.keys('Enter');
    const opened = await t.waitFor(
      (s) =>
        !s.startsWith('Search all') && s.includes('flux capacitor') && s.includes('seq 100000'),
      'the far hit opened',
      60_000,
    );
    const selected = conversationPane(opened)
      .split('\n')
      .find((row) => row.includes('flux capacitor'));
    expect(selected?.trimStart().startsWith('▌')).toBe(true);

    // A hit in another session opens that session, at a wide size too.
    t.resize(140, 40);
    t.keys('Tab'); // the conversation has focus after opening a hit
    await t.waitFor((s) => s.includes('/ search all'), 'the session list focused');
    t.keys('/');
    t.text('lab bench');
    t.keys('Enter');
    await t.waitFor((s) => s.includes('1 hits') && s.includes('Lab'), 'the lab hit', 60_000);
    t.keys('Enter');
    const lab = await t.waitFor(
      (s) => (s.split('\n')[0] ?? '').includes('Lab') && s.includes('Lab answered.'),
      'the Lab session',
      60_000,
    );
    const labRow = conversationPane(lab)
      .split('\n')
      .find((row) => row.includes('lab bench'));
    expect(labRow?.trimStart().startsWith('▌')).toBe(true);
  }, 240_000);

  it('n and N move between hits of the open session, each paged in and selected', async () => {
    tmux?.kill();
    const t = (tmux = launchTui(host.url, 'pair', { cols: 100, rows: 30 }));
    await t.waitFor(
      (s) => s.includes('nothing changed') && s.includes('following'),
      'the tail',
      60_000,
    );
    t.keys('Tab');
    t.keys('n');
    await t.waitFor((s) => s.includes('no search yet'), 'n before any search');
    t.keys('/');
    await t.waitFor((s) => s.includes('search›'), 'the query line');
    t.text('warp coil');
    t.keys('Enter');
    const selectedRow = (screen: string, text: string) =>
      conversationPane(screen)
        .split('\n')
        .find((row) => row.includes(text))
        ?.trimStart()
        .startsWith('▌');
    const first = await t.waitFor(
      (s) => s.includes('hums at dawn') && s.includes('hit 1 of 2') && s.includes('seq 1000 '),
      'the first hit, far back',
      60_000,
    );
    expect(selectedRow(first, 'hums at dawn')).toBe(true);
    expect(first).not.toContain('hums at dusk');
    t.keys('n');
    const second = await t.waitFor(
      (s) => s.includes('hums at dusk') && s.includes('hit 2 of 2') && s.includes('seq 199001'),
      'the second hit',
      60_000,
    );
    expect(selectedRow(second, 'hums at dusk')).toBe(true);
    expect(second).not.toContain('hums at dawn');
    t.keys('N');
    const back = await t.waitFor(
      (s) => s.includes('hums at dawn') && s.includes('hit 1 of 2'),
      'the first hit again',
      60_000,
    );
    expect(selectedRow(back, 'hums at dawn')).toBe(true);
  }, 240_000);
});
