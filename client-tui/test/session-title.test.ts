import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConversation } from '@dsh/card-models';
import type { SessionWindow } from '@dsh/client-live';
import { events, toolCall, userMessage, type Payload } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionClient, createTuiApp } from '../src/index.js';
import { firstPrompt, sessionTitle } from '../src/ui/session-title.js';
import { setup } from './key-state.js';
import { startTestHost, type TestHost } from './test-host.js';
import { createVirtualTerminal } from './virtual-terminal.js';

const snapshotOf = (payloads: Payload[], from = 0) =>
  createConversation().apply({ kind: 'replace', events: events(payloads).slice(from) });

describe('firstPrompt()', () => {
  it.each<[string, Payload[], number, string | undefined]>([
    [
      'the first user message, one line',
      [userMessage('fix the\nflaky test')],
      0,
      'fix the flaky test',
    ],
    ['after other events', [toolCall('c1', 'bash', {}), userMessage('second')], 0, 'second'],
    ['none yet', [toolCall('c1', 'bash', {})], 0, undefined],
    ['a window that does not start at seq 0', [userMessage('a'), userMessage('b')], 1, undefined],
    ['cut to 80 characters', [userMessage('x'.repeat(200))], 0, 'x'.repeat(80)],
  ])('%s', (_name, payloads, from, expected) => {
    expect(firstPrompt(snapshotOf(payloads, from))).toBe(expected);
  });
});

describe('sessionTitle()', () => {
  const withPrompt = (prompt: string) => {
    const t = setup();
    const window = { state: { snapshot: snapshotOf([userMessage(prompt)]) } };
    if (t.state.open) t.state.open = { ...t.state.open, window: window as SessionWindow };
    return t.state;
  };
  it('prefers the host’s title, then the first prompt, then the id', () => {
    const state = withPrompt('rename the module');
    expect(sessionTitle(state, 's1', { title: 'Host title' })).toBe('Host title');
    expect(sessionTitle(state, 's1', { title: '' })).toBe('rename the module');
    expect(sessionTitle(state, 'other', { title: '' })).toBe('other');
  });
  it('keeps a prompt it found once another session is open', () => {
    const state = withPrompt('first session');
    expect(sessionTitle(state, 's1', undefined)).toBe('first session');
    state.open = undefined;
    expect(sessionTitle(state, 's1', undefined)).toBe('first session');
  });
});

describe('createTuiApp() titles an untitled session by its first prompt', () => {
  let dataDir: string;
  let host: TestHost;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-title-'));
    host = await startTestHost({ dataDir });
  });
  afterAll(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('in the header, the session list and the window title', async () => {
    const journal = await host.store.create({ cwd: dataDir });
    const id = journal.header.sessionId;
    const vt = createVirtualTerminal(100, 24);
    const app = createTuiApp({
      client: createSessionClient(host.url),
      hostLabel: 'test',
      input: vt.input,
      output: vt.output,
      colorDepth: 256,
      mouse: false,
      sessionId: id,
    });
    try {
      const screen = async (test: (rows: string[]) => boolean, what: string) => {
        for (let i = 0; i < 200; i++) {
          await vt.settle();
          if (test(vt.lines())) return vt.lines();
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        throw new Error(`timed out waiting for ${what}:\n${vt.lines().join('\n')}`);
      };
      await screen((rows) => rows.join('\n').includes('following'), 'the open session');
      expect(vt.lines()[0]).toContain(id);
      await journal.append([userMessage('Port the parser to Rust')]);
      const rows = await screen(
        (r) => r[0]?.includes('Port the parser to Rust') ?? false,
        'the prompt as the header title',
      );
      expect(rows[0]).not.toContain(id);
      // The session list (left of the separator) shows it too.
      expect(rows.slice(1).some((row) => (row.split('│')[0] ?? '').includes('Port the'))).toBe(
        true,
      );
      expect(vt.raw).toContain('\x1b]2;dsh: Port the parser to Rust\x07');
    } finally {
      app.close();
      vt.dispose();
    }
  });
});
