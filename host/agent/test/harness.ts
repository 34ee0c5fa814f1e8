import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import type { SessionEvent } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { createAgentRuntime, type AgentRuntime } from '../src/index.js';
import { eventTypes, type Journal, type JournalStore } from '@dsh/journal';
import { onAppended } from '@dsh/journal/test-kit';
import { createJournalStore } from '@dsh/journal-file';
import { createOpenAiProvider, type ModelProvider } from '@dsh/providers';
import type { ApprovalPolicy } from '../src/index.js';
import type { Tool } from '@dsh/tools';
import { startFakeOpenAiServer, type FakeOpenAiServer } from '@dsh/providers/test-kit';

/** A real journal store in a temp dir, an agent runtime over it and a fake model server. */
export interface Harness {
  readonly server: FakeOpenAiServer;
  readonly store: JournalStore;
  readonly runtime: AgentRuntime;
  readonly journal: Journal;
  readonly sessionId: string;
  readonly cwd: string;
  prompt(
    text: string,
    mode?: 'queue' | 'steer',
  ): Promise<{ started: boolean; queuePosition: number; queueId: string }>;
  events(): Promise<SessionEvent[]>;
  /** Journal type names of every event so far (`assistant/chunk` collapsed). */
  types(): Promise<string[]>;
  /** Resolves with the first event that matches, waiting for appends. */
  waitFor(match: (event: SessionEvent) => boolean): Promise<SessionEvent>;
  close(): Promise<void>;
}

/** Starts a harness; `provider` defaults to the OpenAI provider against the fake server. */
export async function startHarness(options: {
  tools: Tool[];
  approvals?: Record<string, ApprovalPolicy>;
  provider?: ModelProvider;
  model?: string;
  /** The context budget of every model, from the session's cwd (by model name otherwise). */
  contextBudget?: (cwd: string) => number;
  maxSteps?: number;
}): Promise<Harness> {
  const root = await mkdtemp(join(tmpdir(), 'dsh-agent-'));
  const cwd = join(root, 'work');
  await import('node:fs/promises').then((fs) => fs.mkdir(cwd));
  const server = await startFakeOpenAiServer();
  const store = await createJournalStore({ dataDir: join(root, 'sessions') });
  const journal = await store.create({ cwd, model: options.model ?? 'fake-model' });
  const provider =
    options.provider ??
    createOpenAiProvider({
      baseUrl: server.baseUrl,
      model: 'fake-model',
      apiKey: 'k',
      retryBaseMs: 1,
    });
  const runtime = createAgentRuntime({
    store,
    provider,
    tools: options.tools,
    approvals: options.approvals ?? {},
    spillRoot: join(root, 'spill'),
    ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
    ...(options.contextBudget === undefined
      ? {}
      : { contextBudget: () => options.contextBudget?.(cwd) ?? 0 }),
  });
  const sessionId = journal.header.sessionId;
  const events = (): Promise<SessionEvent[]> => journal.read(0, journal.length);
  return {
    server,
    store,
    runtime,
    journal,
    sessionId,
    cwd,
    prompt: (text, mode = 'queue') =>
      runtime.prompt(sessionId, {
        content: [create(ContentBlockSchema, { block: { case: 'text', value: { text } } })],
        mode: mode === 'queue' ? PromptMode.QUEUE : PromptMode.STEER,
      }),
    events,
    async types() {
      const names = (await events()).map(typeName);
      return names.filter((name, i) => !(name === 'assistant/chunk' && names[i - 1] === name));
    },
    async waitFor(match) {
      return new Promise<SessionEvent>((resolve, reject) => {
        let done = false;
        let stop = (): void => {};
        const finish = (event: SessionEvent): void => {
          if (done) return;
          done = true;
          stop();
          resolve(event);
        };
        onAppended(journal, (appended) => {
          const hit = appended.find(match);
          if (hit) finish(hit);
        }).then((stopFollow) => {
          stop = stopFollow;
          if (done) stopFollow();
        }, reject);
        events().then((existing) => {
          const hit = existing.find(match);
          if (hit) finish(hit);
        }, reject);
      });
    },
    async close() {
      await runtime.close();
      await server.close();
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** The journal type name of an event. */
export function typeName(event: SessionEvent): string {
  const c = event.payload.case;
  if (c === undefined) return 'unset';
  if (c === 'extension') return event.payload.value?.type ?? 'extension';
  return eventTypes[c].type;
}

/** Narrows an event to one payload case, or fails the test with what it was. */
export function payloadOf<C extends NonNullable<SessionEvent['payload']['case']>>(
  event: SessionEvent | undefined,
  kind: C,
): PayloadValue<C> {
  if (event?.payload.case !== kind) throw new Error(`expected ${kind}, got ${event?.payload.case}`);
  return event.payload.value as unknown as PayloadValue<C>;
}

type PayloadValue<C> =
  Extract<SessionEvent['payload'], { case: C }> extends { value: infer V } ? V : never;
