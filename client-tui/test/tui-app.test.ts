/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionClient, createTuiApp, type TuiApp } from '../src/index.js';
import { startTestHost, type TestHost } from './test-host.js';
import { createVirtualTerminal, type VirtualTerminal } from './virtual-terminal.js';

async function until(check: () => boolean, what: string, vt: VirtualTerminal): Promise<void> {
  for (let i = 0; i < 200; i++) {
    await vt.settle();
    if (check()) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`timed out waiting for ${what}; the screen was:\n${vt.lines().join('\n')}`);
}

describe('createTuiApp() on a virtual 80x24 terminal against a real host', () => {
  let dataDir: string;
  let host: TestHost;
  let vt: VirtualTerminal;
  let app: TuiApp;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-app-'));
    host = await startTestHost({ dataDir, fixtureDirs: [journalsDir] });
  });
  afterAll(async () => {
    app?.close();
    vt?.dispose();
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('draws nothing while idle and batches a burst of appends into few draws', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Batched', model: 'demo' });
    vt = createVirtualTerminal(80, 24);
    app = createTuiApp({
      client: createSessionClient(host.url),
      hostLabel: 'test',
      input: vt.input,
      output: vt.output,
      colorDepth: 256,
      mouse: false,
      sessionId: journal.header.sessionId,
    });
    await until(() => vt.lines().join('\n').includes('following'), 'the open session', vt);
    const idle = app.renders;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.renders).toBe(idle);

    const burst = Array.from({ length: 200 }, (_, i) => userMessage(`burst message ${i}`));
    await journal.append(burst);
    await until(() => vt.lines().join('\n').includes('burst message 199'), 'the burst', vt);
    expect(app.renders - idle).toBeLessThanOrEqual(5);
  });

  it('never writes mouse-reporting modes unless asked', () => {
    expect(vt.raw).not.toMatch(/\x1b\[\?100[0-6]h/);
  });

  it('opens the ? help screen and the details of a card from the keyboard', async () => {
    vt.type('\x1bOP'); // F1
    await until(() => vt.lines().join('\n').includes('Keys'), 'the help screen', vt);
    vt.type('x');
    await until(() => !vt.lines().join('\n').includes('(any key closes)'), 'the help closed', vt);
    vt.type('\x1b'); // composer -> conversation
    await new Promise((resolve) => setTimeout(resolve, 50));
    vt.type('k');
    vt.type('\r');
    await until(() => vt.lines()[0]?.startsWith('Details') ?? false, 'the details view', vt);
    vt.type('\x1b');
    await until(() => !(vt.lines()[0]?.startsWith('Details') ?? true), 'the details closed', vt);
  });
});
