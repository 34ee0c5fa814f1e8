/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { agentTurn, userMessage, type Payload } from '@dsh/fixtures';
import { journalsDir } from '@dsh/fixtures/journals';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
  // The clients a test opened with `openApp`, closed after it: no test uses another's.
  let opened: { vt: VirtualTerminal; app: TuiApp }[] = [];

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-tui-app-'));
    host = await startTestHost({ dataDir, fixtureDirs: [journalsDir] });
  });
  afterEach(() => {
    for (const { vt, app } of opened) {
      app.close();
      vt.dispose();
    }
    opened = [];
  });
  afterAll(async () => {
    await host.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  /** A new session holding `payloads`, open in a new client on a fresh 80x24 terminal. */
  async function openApp(title: string, payloads: Payload[] = []) {
    const journal = await host.store.create({ cwd: dataDir, title, model: 'demo' });
    if (payloads.length > 0) await journal.append(payloads);
    const vt = createVirtualTerminal(80, 24);
    const app = createTuiApp({
      client: createSessionClient(host.url),
      hostLabel: 'test',
      input: vt.input,
      output: vt.output,
      colorDepth: 256,
      mouse: false,
      sessionId: journal.header.sessionId,
    });
    opened.push({ vt, app });
    await until(() => vt.lines().join('\n').includes('following'), 'the open session', vt);
    return { journal, vt, app };
  }

  it('draws nothing while idle and batches a burst of appends into few draws', async () => {
    const { journal, vt, app } = await openApp('Batched');
    // A fresh host's catalog sends the fixtures' token facts just after its first snapshot.
    await settled(() => app.renders);
    const idle = app.renders;
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(app.renders).toBe(idle);

    const burst = Array.from({ length: 200 }, (_, i) => userMessage(`burst message ${i}`));
    await journal.append(burst);
    await until(() => vt.lines().join('\n').includes('burst message 199'), 'the burst', vt);
    expect(app.renders - idle).toBeLessThanOrEqual(5);
  });

  it('never writes mouse-reporting modes unless asked', async () => {
    const { vt } = await openApp('No mouse', [userMessage('a message')]);
    await until(() => vt.lines().join('\n').includes('a message'), 'the message', vt);
    expect(vt.raw).not.toMatch(/\x1b\[\?100[0-6]h/);
  });

  it('opens the ? help screen and the details of a card from the keyboard', async () => {
    const { vt } = await openApp('Help', [userMessage('first'), userMessage('second')]);
    await until(() => vt.lines().join('\n').includes('second'), 'the messages', vt);
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

  it('redraws a resize without clearing, as a fresh client draws that size', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Resized', model: 'demo' });
    await journal.append(
      Array.from({ length: 6 }, (_, i) =>
        agentTurn({
          turn: i + 1,
          user: `question ${i} ${'with a long line that wraps at every width '.repeat(2)}`,
          say: `## Answer ${i}\n\n- a **list** item that is long enough to wrap at seventy columns\n\n\`\`\`ts\nconst x = ${i};\n\`\`\``,
        }),
      ).flat(),
    );
    const start = (term: VirtualTerminal) =>
      createTuiApp({
        client: createSessionClient(host.url),
        hostLabel: 'test',
        input: term.input,
        output: term.output,
        colorDepth: 256,
        mouse: false,
        sessionId: journal.header.sessionId,
      });
    const shown = (term: VirtualTerminal) => {
      const screen = term.lines().join('\n');
      return screen.includes('const x = 5') && screen.includes('following');
    };
    const resized = createVirtualTerminal(80, 24);
    const client = start(resized);
    try {
      await until(() => shown(resized), 'the session at 80x24', resized);
      for (const [cols, rows] of [
        [120, 30],
        [70, 20],
      ] as const) {
        const before = resized.raw.length;
        const draws = client.renders;
        resized.resize(cols, rows);
        await until(() => client.renders > draws && shown(resized), `${cols}x${rows}`, resized);
        // No erase of the display (ED), so the old frame stays until it is overwritten.
        expect(resized.raw.slice(before)).not.toMatch(/\x1b\[[0-3]?J/);
        const fresh = createVirtualTerminal(cols, rows);
        const other = start(fresh);
        try {
          await until(() => shown(fresh), `a fresh client at ${cols}x${rows}`, fresh);
          await resized.settle();
          expect(resized.lines()).toEqual(fresh.lines());
        } finally {
          other.close();
          fresh.dispose();
        }
      }
    } finally {
      client.close();
      resized.dispose();
    }
  });

  /** The TUI at 80x24 on session `sessionId` of the test host. */
  const openAt = (sessionId: string) => {
    const term = createVirtualTerminal(80, 24);
    const client = createTuiApp({
      client: createSessionClient(host.url),
      hostLabel: 'test',
      input: term.input,
      output: term.output,
      colorDepth: 256,
      mouse: false,
      sessionId,
    });
    return { term, client };
  };

  it('End after paging far back reopens the window at its tail, releasing the older pages', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Paged', model: 'demo' });
    await journal.append(
      Array.from({ length: 400 }, (_, i) =>
        agentTurn({ turn: i + 1, user: `paged question ${i}`, close: `paged answer ${i}` }),
      ).flat(),
    );
    const { term, client } = openAt(journal.header.sessionId);
    const nodes = () => client.state.open?.window.state.snapshot.nodes.length ?? 0;
    try {
      await until(() => term.lines().join('\n').includes('paged answer 399'), 'the tail', term);
      const tail = nodes();
      term.type('\x1b'); // composer -> conversation
      for (let page = 0; page < 4; page++) {
        const before = nodes();
        term.type('g');
        await until(() => nodes() > before, `older page ${page + 1}`, term);
      }
      const paged = nodes();
      expect(paged).toBeGreaterThan(tail * 2);
      term.type('\x1b[F'); // End
      await until(() => nodes() === tail, 'the window back at its tail', term);
      await until(() => term.lines().join('\n').includes('paged answer 399'), 'the bottom', term);
      expect(client.state.open?.olderPages).toBe(0);
    } finally {
      client.close();
      term.dispose();
    }
  });

  it('pages far back in a bounded reading window, and End goes back to the live one', async () => {
    const journal = await host.store.create({ cwd: dataDir, title: 'Far', model: 'demo' });
    await journal.append(
      Array.from({ length: 1500 }, (_, i) =>
        agentTurn({ turn: i + 1, user: `far question ${i}`, close: `far answer ${i}` }),
      ).flat(),
    );
    const { term, client } = openAt(journal.header.sessionId);
    const open = () => client.state.open;
    const shown = () => {
      const reading = open()?.reading;
      return reading?.history.state.opened === true ? reading.window : open()?.window;
    };
    const firstSeq = () => shown()?.state.snapshot.firstSeq ?? Number.MAX_SAFE_INTEGER;
    try {
      await until(() => term.lines().join('\n').includes('far answer 1499'), 'the tail', term);
      const tail = open()?.window.state.snapshot.nodes.length ?? 0;
      term.type('\x1b'); // composer -> conversation
      let most = 0;
      for (let page = 0; page < 14; page++) {
        const before = firstSeq();
        term.type('g');
        await until(() => firstSeq() < before, `older page ${page + 1}`, term);
        most = Math.max(most, shown()?.state.snapshot.nodes.length ?? 0);
      }
      // The live window went back to its tail; the reading window holds at most 6 pages.
      expect(open()?.reading).toBeDefined();
      expect(open()?.window.state.snapshot.nodes.length).toBe(tail);
      expect(most).toBeLessThanOrEqual(tail * 7);
      expect(most).toBeLessThan((open()?.window.state.snapshot.endSeq ?? 0) / 2);
      term.type('\x1b[F'); // End
      await until(() => open()?.reading === undefined, 'the live window shown', term);
      await until(() => term.lines().join('\n').includes('far answer 1499'), 'the bottom', term);
      expect(open()?.view.following).toBe(true);
    } finally {
      client.close();
      term.dispose();
    }
  });
});

/** Resolves once `count` has not changed for 500 ms (at most 10 s). */
async function settled(count: () => number): Promise<void> {
  const deadline = Date.now() + 10_000;
  let last = count();
  let since = Date.now();
  while (Date.now() - since < 500 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    if (count() !== last) {
      last = count();
      since = Date.now();
    }
  }
}
