import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode } from '@dsh/gen/service';
import type { Journal, JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { createOpenAiProvider } from '@dsh/providers';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@dsh/providers/test-kit';
import { createAgentRuntime, createModelHistory, type AgentRuntime } from '../src/index.js';
import { emitTool, emittingModel, isCompaction } from './compaction-kit.js';

const budget = 6_000;
let root: string;
let server: FakeOpenAiServer;
afterEach(async () => {
  await server.close();
  await rm(root, { recursive: true, force: true });
});

/** A store whose journals log every `read` and `page` call made on them. */
function loggingStore(store: JournalStore, log: string[]): JournalStore {
  const wrap = (journal: Journal): Journal =>
    new Proxy(journal, {
      get(target, key, receiver) {
        if (key === 'read') {
          return (from: number, to: number, options?: { maxBytes?: number }) => {
            log.push(`read ${from} ${to}${options?.maxBytes === undefined ? '' : ' bounded'}`);
            return target.read(from, to, options);
          };
        }
        if (key === 'page') {
          return (before: number | undefined, max: number) => {
            log.push(`page ${before ?? 'tail'} ${max}`);
            return target.page(before, max);
          };
        }
        const value: unknown = Reflect.get(target, key, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  return new Proxy(store, {
    get(target, key, receiver) {
      if (key === 'open') return async (id: string) => wrap(await target.open(id));
      const value: unknown = Reflect.get(target, key, receiver);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function runtimeOver(store: JournalStore): AgentRuntime {
  return createAgentRuntime({
    store,
    provider: createOpenAiProvider({ baseUrl: server.baseUrl, model: 'fake-model', apiKey: 'k' }),
    tools: [emitTool],
    spillRoot: join(root, 'spill'),
    contextBudget: () => budget,
    maxSteps: 500,
  });
}

const prompt = (runtime: AgentRuntime, sessionId: string, text: string) =>
  runtime.prompt(sessionId, {
    content: [create(ContentBlockSchema, { block: { case: 'text', value: { text } } })],
    mode: PromptMode.QUEUE,
  });

describe('reopening a compacted session after a host restart', () => {
  it('rebuilds the model history from the latest compaction, reading nothing before it', async () => {
    root = await mkdtemp(join(tmpdir(), 'dsh-restart-'));
    const dataDir = join(root, 'sessions');
    server = await startFakeOpenAiServer();
    const model = emittingModel(150, 1_500);
    server.handle((body) => model.handle(body));

    const first = await createJournalStore({ dataDir });
    const session = await first.create({ cwd: root, model: 'fake-model' });
    const sessionId = session.header.sessionId;
    const before = runtimeOver(first);
    await prompt(before, sessionId, 'Run the long job.');
    await before.idle(sessionId);
    await before.close();
    await first.close();

    // A new host: a new store over the same data dir, a new runtime.
    const log: string[] = [];
    const second = await createJournalStore({ dataDir });
    const journal = await second.open(sessionId);
    const length = journal.length;
    const events = await journal.read(0, length);
    const latest = events.findLast((e) => e.payload.case === 'contextCompaction');
    if (latest?.payload.case !== 'contextCompaction') throw new Error('no compaction recorded');
    const kept = latest.payload.value.keptFromSeq;
    expect(length).toBeGreaterThan(1_000);
    expect(kept).toBeGreaterThan(1_000);

    const tailStart = (await journal.page(undefined, 1)).events[0]!.seq;
    const after = runtimeOver(loggingStore(second, log));
    model.more(1);
    const requestsBefore = server.requests.length;
    await prompt(after, sessionId, 'Carry on.');
    await after.idle(sessionId);

    // The agent found the compaction from the tail page and read from its cut on; the
    // other read is the bounded look-back that closes a turn a stopped host left open. The
    // one tail page also gives the inputs a stopped host left waiting in the queue.
    expect(log).toEqual([
      `read ${Math.max(0, length - 1_000)} ${length}`,
      'page tail 1',
      ...(kept < tailStart ? [`read ${kept} ${tailStart} bounded`] : []),
    ]);

    // The history it sent equals the one a fold of the whole journal gives.
    const resumed = server.requests.slice(requestsBefore).find((r) => !isCompaction(r))!;
    const all = await journal.read(0, journal.length);
    const firstNew = all.findIndex((e) => e.seq >= length && e.payload.case === 'assistantChunk');
    const history = createModelHistory({ resultTokens: Math.floor(budget * 0.2) });
    history.add(all.slice(0, firstNew));
    const sent = (resumed['messages'] as { role: string; content: string | null }[]).slice(1);
    expect(sent.map((m) => [m.role, m.content ?? ''])).toEqual(
      history.messages().map((m) => [m.role, m.content]),
    );
    expect(sent[0]?.content).toContain(latest.payload.value.summary);
    await after.close();
    await second.close();
  }, 120_000);
});
