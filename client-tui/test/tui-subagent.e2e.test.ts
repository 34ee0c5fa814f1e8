import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionClient } from '../src/index.js';
import { launchTui, pause, tmuxMissing } from './launch-tui.js';
import { startTestHost, type TestHost } from './test-host.js';
import type { TmuxSession } from './tmux.js';

const skip = tmuxMissing('the client-tui sub-agent end-to-end tests');

/** The header row: the open session's title. */
const header = (screen: string) => screen.split('\n')[0] ?? '';
/** The composer row (the one above the key hints). */
const composerRow = (screen: string) => screen.trimEnd().split('\n').at(-2) ?? '';

describe.skipIf(skip)('dsh tui sub-agent sessions in tmux against a real host', () => {
  let dataDir: string;
  let host: TestHost;
  let tmux: TmuxSession | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-subagent-'));
    host = await startTestHost({ dataDir });
  });
  afterAll(async () => {
    tmux?.kill();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  for (const [cols, rows] of [
    [80, 24],
    [150, 40],
  ] as const) {
    it(`l opens a sub-agent card's session, u goes back, its composer is read-only at ${cols}x${rows}`, async () => {
      const parent = await host.store.create({
        cwd: dataDir,
        title: `Parent ${cols}`,
        model: 'demo',
      });
      const parentId = parent.header.sessionId;
      const client = createSessionClient(host.url);
      const created = await client.createSession({
        cwd: dataDir,
        parentId,
        title: `Child ${cols}`,
        model: 'demo',
      });
      const childId = created.session?.id ?? '';
      const child = await host.store.open(childId);
      await child.append(agentTurn({ turn: 1, user: 'Look around', close: 'Child work done.' }));
      await parent.append(
        agentTurn({
          turn: 1,
          user: 'Delegate it',
          calls: [
            {
              id: 'call_task',
              name: 'delegate',
              args: { task: 'look around' },
              result: { output: 'the sub-agent finished', meta: { childSessionId: childId } },
            },
          ],
          close: 'Parent done.',
        }),
      );
      tmux?.kill();
      const t = launchTui(host.url, parentId, { cols, rows });
      tmux = t;
      const first = await t.waitFor(
        (s) => s.includes('Parent done.') && s.includes("Open the sub-agent's session (l)"),
        'the parent with its sub-agent card',
      );
      expect(composerRow(first)).toContain('write a prompt');

      t.keys('Tab');
      await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
      for (let i = 0; i < 6; i++) {
        const screen = t.capture();
        const selected = screen.split('\n').find((row) => row.includes('▌'));
        if (selected !== undefined && selected.includes('delegate')) break;
        t.keys('k');
        await pause(200);
      }
      t.keys('l');
      const opened = await t.waitFor(
        (s) => header(s).includes(`Child ${cols}`) && s.includes('Child work done.'),
        'the child session',
      );
      expect(composerRow(opened)).toContain("read-only: a sub-agent's session");

      // Typing into its composer sends nothing and says why.
      t.keys('i');
      t.text('hello child');
      t.keys('Enter');
      const typed = await t.waitFor(
        (s) =>
          s
            .split('\n')
            .some((row) => row.startsWith('read-only') || row.includes(' read-only: a sub')),
        'the reason in the status line',
      );
      expect(typed).not.toContain('hello child');
      const page = await client.page({ sessionId: childId, maxMessages: 10 });
      expect(page.events.filter((e) => e.event?.payload.case === 'userMessage')).toHaveLength(1);

      t.keys('Escape');
      await t.waitFor((s) => s.includes('j/k cards'), 'the conversation focused');
      t.keys('u');
      const back = await t.waitFor((s) => header(s).includes(`Parent ${cols}`), 'the parent again');
      expect(composerRow(back)).toContain('i or Esc to compose');
    });
  }
});
