import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { UnqueueReason, type SessionEvent } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { eventPayloads } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { deltaChunk, startFakeOpenAiServer, textReply } from '@dsh/providers/test-kit';
import { createOpenAiProvider } from '@dsh/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentRuntime } from '../src/index.js';
import { payloadOf, startHarness, typeName, type Harness } from './harness.js';
import { echoTool } from './test-tools.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const text = (value: string): ContentBlock =>
  create(ContentBlockSchema, { block: { case: 'text', value: { text: value } } });
const textOf = (content: readonly ContentBlock[]): string =>
  content.map((b) => (b.block.case === 'text' ? b.block.value.text : '')).join('');

/** Starts a turn whose model stream hangs after one chunk, so the session stays running. */
async function runningSession(harness: Harness): Promise<void> {
  harness.server.reply({
    kind: 'stream',
    chunks: [deltaChunk({ content: 'thinking' })],
    hang: true,
  });
  await harness.prompt('first');
  await harness.waitFor(
    (e) => e.payload.case === 'assistantChunk' && e.payload.value.chunk?.chunk.case === 'textDelta',
  );
}

function unqueuedReasons(events: readonly SessionEvent[]): [string, UnqueueReason][] {
  return events
    .filter((e) => e.payload.case === 'inputUnqueued')
    .map((e) => {
      const value = payloadOf(e, 'inputUnqueued');
      return [value.queueId, value.reason];
    });
}

describe('the visible queue (AgentRuntime)', () => {
  it('journals queued input, edits it in place, removes it, and the baseline shows what waits', async () => {
    h = await startHarness({ tools: [echoTool] });
    await runningSession(h);
    const a = await h.prompt('second');
    const b = await h.prompt('third');
    const c = await h.prompt('nudge', 'steer');
    expect(a).toMatchObject({ started: false, queuePosition: 1 });
    expect(b).toMatchObject({ started: false, queuePosition: 2 });
    expect(c).toMatchObject({ started: false, queuePosition: 0 });
    expect(new Set([a.queueId, b.queueId, c.queueId]).size).toBe(3);
    const edited = await h.runtime.editQueue(h.sessionId, a.queueId, [text('second, edited')]);
    expect(textOf(edited.previous)).toBe('second');
    const removed = await h.runtime.editQueue(h.sessionId, b.queueId, []);
    expect(textOf(removed.previous)).toBe('third');
    await expect(h.runtime.editQueue(h.sessionId, b.queueId, [text('x')])).rejects.toThrow(
      /no input .* is waiting/,
    );
    const baseline = (await h.journal.page(undefined, 1)).baseline;
    // The tail page starts at the last message: the queue events follow it in the page.
    const page = await h.journal.page(undefined, 50);
    expect(page.baseline?.queue ?? []).toEqual([]);
    expect(baseline).toBeDefined();
    const queuedTexts = page.events
      .filter((e) => e.payload.case === 'inputQueued')
      .map((e) => textOf(payloadOf(e, 'inputQueued').content));
    expect(queuedTexts).toEqual(['second', 'third', 'nudge', 'second, edited']);

    const cancelled = await h.runtime.cancel(h.sessionId);
    expect(cancelled).toMatchObject({ cancelled: true, cleared: 2 });
    expect(cancelled.clearedInputs.map((i) => [i.queueId, textOf(i.content), i.steer])).toEqual([
      [a.queueId, 'second, edited', false],
      [c.queueId, 'nudge', true],
    ]);
    expect(cancelled.clearedInputs.every((i) => i.seq > 0)).toBe(true);
    const events = await h.events();
    expect(unqueuedReasons(events)).toEqual([
      [b.queueId, UnqueueReason.REMOVED],
      [a.queueId, UnqueueReason.CLEARED],
      [c.queueId, UnqueueReason.CLEARED],
    ]);
    // After the Stop nothing waits: the next tail page's baseline queue is empty.
    const after = await h.journal.page(undefined, 1);
    expect(after.baseline?.queue ?? []).toEqual([]);
  });

  it('carries the waiting inputs of a tail page in its baseline (queuedInputs projection)', async () => {
    h = await startHarness({ tools: [echoTool] });
    const p = eventPayloads;
    await h.journal.append([
      p.userMessage([text('first')], 'user'),
      p.inputQueued('q-a', [text('a')], false),
      p.inputQueued('q-b', [text('b')], true),
      p.inputQueued('q-c', [text('c')], false),
      p.inputQueued('q-a', [text('a, edited')], false),
      p.inputUnqueued('q-b', UnqueueReason.STEERED),
      p.assistantMessage({ turn: 1, step: 0 }, [text('ok')], undefined, 'm', 'stop'),
      p.inputUnqueued('q-c', UnqueueReason.REMOVED),
    ]);
    const tail = await h.journal.page(undefined, 1);
    expect(tail.events[0]?.payload.case).toBe('assistantMessage');
    expect(tail.baseline?.queue.map((q) => [q.queueId, textOf(q.content), q.steer, q.seq])).toEqual(
      [
        ['q-a', 'a, edited', false, 1],
        ['q-c', 'c', false, 3],
      ],
    );
  });

  it('replays the inputs still waiting after a host restart, in order', async () => {
    const root = await mkdtemp(join(tmpdir(), 'dsh-agent-queue-'));
    const cwd = join(root, 'work');
    await mkdir(cwd);
    const server = await startFakeOpenAiServer();
    const provider = createOpenAiProvider({
      baseUrl: server.baseUrl,
      model: 'fake-model',
      apiKey: 'k',
      retryBaseMs: 1,
    });
    const dataDir = join(root, 'sessions');
    try {
      const store = await createJournalStore({ dataDir });
      const journal = await store.create({ cwd, model: 'fake-model' });
      const sessionId = journal.header.sessionId;
      const runtime = createAgentRuntime({ store, provider, tools: [echoTool], spillRoot: root });
      server.reply({ kind: 'stream', chunks: [deltaChunk({ content: 'slow' })], hang: true });
      const prompt = (value: string) =>
        runtime.prompt(sessionId, { content: [text(value)], mode: PromptMode.QUEUE });
      await prompt('first');
      while (
        !(await journal.read(0, journal.length)).some((e) => e.payload.case === 'assistantChunk')
      ) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      await prompt('queued one');
      await prompt('queued two');
      // The host stops without a Cancel (a crash or a kill): the queue stays journaled.
      await store.close();

      const again = await createJournalStore({ dataDir });
      server.reply(textReply(['Did one.']), textReply(['Did two.']));
      const restarted = createAgentRuntime({
        store: again,
        provider,
        tools: [echoTool],
        spillRoot: root,
      });
      expect(await restarted.resume()).toEqual([sessionId]);
      await restarted.idle(sessionId);
      const reopened = await again.open(sessionId);
      const events = await reopened.read(0, reopened.length);
      const users = events
        .filter((e) => e.payload.case === 'userMessage')
        .map((e) => [
          payloadOf(e, 'userMessage').source,
          textOf(payloadOf(e, 'userMessage').content),
        ]);
      expect(users).toEqual([
        ['user', 'first'],
        ['queued', 'queued one'],
        ['queued', 'queued two'],
      ]);
      expect(unqueuedReasons(events).map(([, reason]) => reason)).toEqual([
        UnqueueReason.STARTED,
        UnqueueReason.STARTED,
      ]);
      const order = events.map(typeName).filter((t) => t !== 'assistant/chunk');
      const firstStart = order.indexOf('input/unqueued');
      expect(order.slice(firstStart, firstStart + 3)).toEqual([
        'input/unqueued',
        'user/message',
        'turn/start',
      ]);
      expect((await reopened.page(undefined, 1)).baseline?.queue ?? []).toEqual([]);
      expect(await restarted.resume()).toEqual([]);
      await restarted.close();
      await again.close();
    } finally {
      await server.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
