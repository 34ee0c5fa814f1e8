import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import {
  createCardCache,
  createConversation,
  deriveCard,
  terminalCardPreview,
  terminalLines,
  type ConversationSnapshot,
  type ToolCallBlock,
} from '@dsh/card-models';
import { createSessionWindow, type SessionWindow } from '@dsh/client-live';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { createOpenAiProvider } from '@dsh/providers';
import {
  startFakeOpenAiServer,
  textReply,
  toolReply,
  type FakeOpenAiServer,
} from '@dsh/providers/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConversationRenderer, createTuiRegistry, seg } from '../src/index.js';
import { drawOnVirtualScreen } from './render-fixture.js';
import { startTestHost, type TestHost } from './test-host.js';

/** The tool block with `callId` in the snapshot: shown in a node or still running. */
function toolOf(snapshot: ConversationSnapshot, callId: string): ToolCallBlock | undefined {
  const stack: ToolCallBlock[] = [...snapshot.runningCalls];
  for (const node of snapshot.nodes) {
    if (node.kind === 'tool-result') stack.push(node.tool);
    if (node.kind === 'assistant') {
      for (const block of node.blocks) if (block.kind === 'tool-call') stack.push(block.tool);
    }
  }
  return stack.find((tool) => tool.callId === callId);
}

/** What card-models make of the call: its terminal card's preview and full output lines. */
function cardModel(snapshot: ConversationSnapshot, callId: string, cwd: string) {
  const block = toolOf(snapshot, callId);
  if (block === undefined) throw new Error(`no call ${callId} in the snapshot`);
  const card = deriveCard(block, { cwd, home: '/nonexistent-home' });
  if (card.body.kind !== 'terminal') throw new Error(`not a terminal card: ${card.body.kind}`);
  return {
    status: block.status,
    preview: terminalCardPreview(card.body),
    lines: terminalLines(card.body),
  };
}

/** The TUI's conversation pane and the call's details view, drawn on a virtual terminal. */
async function tuiScreen(snapshot: ConversationSnapshot, callId: string, cwd: string) {
  const renderer = createConversationRenderer({
    registry: createTuiRegistry(),
    card: { facts: { cwd, home: '/nonexistent-home' }, cards: createCardCache() },
  });
  const items = renderer.render(snapshot, 98, { streaming: false });
  const card = items.find((item) => item.block?.callId === callId);
  if (card === undefined) throw new Error(`no card for ${callId}`);
  const pane = await drawOnVirtualScreen(
    card.lines.map((line) => [seg('  '), ...line]),
    100,
  );
  const details = await drawOnVirtualScreen(card.details(100), 100);
  return { pane: pane.styled, details: details.styled };
}

/** The conversation a fresh client builds from `Page` alone, up to `beforeSeq`. */
async function paged(
  client: Client<typeof SessionService>,
  sessionId: string,
  beforeSeq: number,
): Promise<ConversationSnapshot> {
  const response = await client.page({ sessionId, beforeSeq, maxMessages: 1000 });
  return createConversation().apply({
    kind: 'replace',
    events: response.events.flatMap((entry) => (entry.event === undefined ? [] : [entry.event])),
  });
}

/** Resolves with the first window state that passes `test`. */
function stateWhere(
  states: ConversationSnapshot[],
  test: (snapshot: ConversationSnapshot) => boolean,
  timeoutMs: number,
): Promise<ConversationSnapshot> {
  const start = Date.now();
  return new Promise((resolve, reject) => {
    const poll = () => {
      const found = states.find(test);
      if (found !== undefined) resolve(found);
      else if (Date.now() - start > timeoutMs) reject(new Error('timed out waiting for a state'));
      else setTimeout(poll, 20);
    };
    poll();
  });
}

describe('live output: a live Follow and a later Page draw the same card', () => {
  let dataDir: string;
  let model: FakeOpenAiServer;
  let host: TestHost;
  let window: SessionWindow | undefined;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dsh-live-replay-'));
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
    window?.close();
    await host.close();
    await model.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('while the command runs and once it settled, in card-models and the TUI', async () => {
    const command =
      "for i in $(seq 1 30); do printf '\\033[32mline %d\\033[0m\\n' $i; sleep 0.05; done; " +
      "for p in 25 50 75 100; do printf '\\rprogress %3d%%' $p; sleep 0.05; done; echo";
    model.reply(
      toolReply([{ id: 'call_replay', name: 'bash', args: JSON.stringify({ command }) }]),
      textReply(['Done.']),
    );
    const journal = await host.store.create({ cwd: dataDir, title: 'Replay', model: 'fake-model' });
    const sessionId = journal.header.sessionId;
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
    );
    // Every state the live window went through, in order.
    const states: ConversationSnapshot[] = [];
    const live = (window = createSessionWindow({
      client,
      sessionId,
      onChange: (state) => states.push(state.snapshot),
    }));
    await stateWhere(states, () => live.state.opened, 10_000);
    await client.prompt({
      sessionId,
      content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
      mode: PromptMode.QUEUE,
    });

    // Running: the live window shows output before the result exists.
    const running = await stateWhere(
      states,
      (s) => {
        const tool = toolOf(s, 'call_replay');
        return tool?.status === 'running' && (tool.live?.count ?? 0) >= 2;
      },
      30_000,
    );
    const liveRunning = cardModel(running, 'call_replay', dataDir);
    expect(liveRunning.lines.map((l) => l.text)).toContain('line 1');
    const pagedRunning = await paged(client, sessionId, running.endSeq);
    expect(cardModel(pagedRunning, 'call_replay', dataDir)).toEqual(liveRunning);
    const runningScreen = await tuiScreen(running, 'call_replay', dataDir);
    expect(await tuiScreen(pagedRunning, 'call_replay', dataDir)).toEqual(runningScreen);
    expect(runningScreen.pane).toContain('running…');
    expect(runningScreen.pane).toContain('«fg2»line 1«»');

    // Settled: the follow's final state and a fresh page agree, and the live text the
    // card showed while running is the start of the settled output.
    const settled = await stateWhere(
      states,
      (s) => s.nodes.some((n) => n.kind === 'turn-end'),
      30_000,
    );
    const liveSettled = cardModel(settled, 'call_replay', dataDir);
    const pagedSettled = await paged(client, sessionId, settled.endSeq);
    expect(liveSettled.status).toBe('ok');
    expect(cardModel(pagedSettled, 'call_replay', dataDir)).toEqual(liveSettled);
    const settledText = liveSettled.lines.map((l) => l.text);
    expect(settledText.slice(0, 30)).toEqual(Array.from({ length: 30 }, (_, i) => `line ${i + 1}`));
    expect(settledText).toContain('progress 100%');
    const screen = await tuiScreen(settled, 'call_replay', dataDir);
    expect(await tuiScreen(pagedSettled, 'call_replay', dataDir)).toEqual(screen);
    await expect(screen.pane.replaceAll(dataDir, '<cwd>')).toMatchFileSnapshot(
      '__snapshots__/live-replay.pane.txt',
    );
    await expect(screen.details.replaceAll(dataDir, '<cwd>')).toMatchFileSnapshot(
      '__snapshots__/live-replay.details.txt',
    );
  }, 60_000);

  it.each([
    {
      name: 'fifty lines, 50 ms apart',
      command: 'for i in $(seq 1 50); do echo line $i; sleep 0.05; done',
      settledLines: Array.from({ length: 50 }, (_, i) => `line ${i + 1}`),
    },
    {
      name: 'a carriage-return progress bar',
      command:
        "for p in 10 20 30 40 50 60 70 80 90 100; do printf '\\rbuilding [%-10s] %3d%%' " +
        '"$(printf \'#%.0s\' $(seq 1 $((p / 10))))" $p; sleep 0.1; done; echo; echo built',
      settledLines: ['building [##########] 100%', 'built'],
    },
  ])(
    'at every state the follow went through: $name',
    async ({ command, settledLines }) => {
      const callId = `call_${settledLines.length}`;
      model.reply(
        toolReply([{ id: callId, name: 'bash', args: JSON.stringify({ command }) }]),
        textReply(['Done.']),
      );
      const journal = await host.store.create({
        cwd: dataDir,
        title: 'Every',
        model: 'fake-model',
      });
      const sessionId = journal.header.sessionId;
      const client = createClient(
        SessionService,
        createConnectTransport({ baseUrl: host.url, httpVersion: '1.1' }),
      );
      const states: ConversationSnapshot[] = [];
      const live = createSessionWindow({
        client,
        sessionId,
        onChange: (state) => states.push(state.snapshot),
      });
      try {
        await stateWhere(states, () => live.state.opened, 10_000);
        await client.prompt({
          sessionId,
          content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'go' } } })],
          mode: PromptMode.QUEUE,
        });
        await stateWhere(states, (s) => s.nodes.some((n) => n.kind === 'turn-end'), 30_000);
        // One state per seq the window reached with the call in it: a fresh Page up to that
        // seq must give the same card model, running or settled.
        const bySeq = new Map<number, ConversationSnapshot>();
        for (const state of states) {
          if (toolOf(state, callId) !== undefined) bySeq.set(state.endSeq, state);
        }
        const runningStates = [...bySeq.values()].filter(
          (s) =>
            toolOf(s, callId)?.status === 'running' && (toolOf(s, callId)?.live?.count ?? 0) > 0,
        );
        expect(runningStates.length).toBeGreaterThan(3);
        // A redrawn progress bar is one line while running too, never one line per redraw.
        for (const state of runningStates) {
          const text = cardModel(state, callId, dataDir).lines.map((l) => l.text);
          expect(text.filter((line) => line.startsWith('building')).length).toBeLessThanOrEqual(1);
        }
        for (const [endSeq, state] of bySeq) {
          const followed = cardModel(state, callId, dataDir);
          const replayed = cardModel(await paged(client, sessionId, endSeq), callId, dataDir);
          expect(replayed, `the card at seq ${endSeq}`).toEqual(followed);
        }
        // Settled, the card shows the result's output, which the live text led up to.
        const last = [...bySeq.values()].at(-1)!;
        const settled = cardModel(last, callId, dataDir);
        expect(settled.status).toBe('ok');
        expect(settled.lines.map((l) => l.text)).toEqual(settledLines);
        const lastLive = cardModel(runningStates.at(-1)!, callId, dataDir).lines.map((l) => l.text);
        const settledText = settled.lines.map((l) => l.text);
        expect(settledText.slice(0, lastLive.length - 1)).toEqual(lastLive.slice(0, -1));
      } finally {
        live.close();
      }
    },
    60_000,
  );
});
