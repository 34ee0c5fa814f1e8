import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgentRuntime, type AgentRuntime, type ApprovalPolicy } from '@dsh/agent';
import { journalsDir } from '@dsh/fixtures/journals';
import type { SessionEvent } from '@dsh/gen/events';
import {
  createProjectionRegistry,
  standardProjections,
  type JournalStore,
  type PriceTable,
} from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { createDemoProvider, demoSteps, type ModelProvider } from '@dsh/providers';
import { startServer, type RunningServer } from '@dsh/server';
import { createFirstPartyTools, type FirstPartyTools } from '@dsh/tools';
import { webDistDir } from '../../web-dist.js';

/** The parts of a host journal the browser tests use. */
interface HostJournal {
  readonly length: number;
  readonly header: { readonly cwd: string; readonly parentId: string; readonly model: string };
  append(
    payloads: readonly SessionEvent['payload'][],
    options?: { readonly times?: readonly Date[] },
  ): Promise<SessionEvent[]>;
}

/**
 * The index of the demo model's first scripted step that calls `tool` (the test host's
 * demo model has no host URL, so the web_fetch step is left out, as here). A session whose
 * last assistant call is `demo-0-<index - 1>-0` makes the demo model take that step next.
 */
export function demoStepIndex(tool: string): number {
  const index = demoSteps({ cwd: '/nonexistent', prompt: '', hostUrl: undefined }).findIndex(
    (step) => step.calls.some((call) => call.name === tool),
  );
  if (index < 0) throw new Error(`the demo script has no step calling ${tool}`);
  return index;
}

/** The repository's fixture journals and the built web client. */
export const fixtureJournals = journalsDir;
export const webRoot = webDistDir;

/** A real host for browser tests: fixtures read-only, a writable data dir, the demo agent. */
export interface WebHost {
  readonly url: string;
  readonly dir: string;
  /** A session's journal in the running host; appends reach followers. */
  journal(sessionId: string): Promise<HostJournal>;
  /** A new writable session (working directory: a fresh folder), by id. */
  createSession(title: string): Promise<string>;
  /** Stops everything; `start` serves again on the same port. */
  stop(): Promise<void>;
  /**
   * Stops serving the way a crash would: no Cancel, nothing more recorded (the running
   * turn and the queue stay as the journal shows them); `start` serves again.
   */
  kill(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts a host on 127.0.0.1 (port 0) serving `client-web/dist` and the fixture journals;
 * the model is the demo model unless `provider` is given.
 */
export async function startWebHost(
  options: {
    chunkDelayMs?: number;
    provider?: ModelProvider;
    approvals?: Record<string, ApprovalPolicy>;
    /** Model prices, so baselines carry a cost (none by default, like a host without any). */
    prices?: PriceTable;
    /** The models DescribeHost names (the demo model runs each); just `demo` by default. */
    models?: readonly string[];
  } = {},
): Promise<WebHost> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-web-test-'));
  let port = 0;
  let running:
    | { store: JournalStore; agent: AgentRuntime; tools: FirstPartyTools; server: RunningServer }
    | undefined;
  const start = async (): Promise<void> => {
    const store = await createJournalStore({
      dataDir: join(dir, 'sessions'),
      fixtureDirs: [fixtureJournals],
      ...(options.prices !== undefined && {
        projections: createProjectionRegistry(standardProjections(options.prices)),
      }),
    });
    const tools = createFirstPartyTools({ homeDir: dir });
    const agent = createAgentRuntime({
      store,
      provider:
        options.provider ?? createDemoProvider({ chunkDelayMs: options.chunkDelayMs ?? 40 }),
      tools: tools.tools,
      approvals: options.approvals ?? {},
      spillRoot: join(dir, 'spill'),
    });
    const server = await startServer({
      store,
      search: store.search,
      agent,
      port,
      webRoot,
      defaultCwd: dir,
      defaultModel: 'demo',
      ...(options.models !== undefined && { models: options.models }),
      follow: { heartbeatMs: 1_000 },
      log: () => {},
    });
    port = server.port;
    running = { store, agent, tools, server };
    await agent.resume();
  };
  const stop = async (): Promise<void> => {
    if (running === undefined) return;
    const { store, agent, tools, server } = running;
    running = undefined;
    await agent.close();
    await server.close();
    await tools.dispose();
    await store.close();
  };
  const kill = async (): Promise<void> => {
    if (running === undefined) return;
    const { store, server } = running;
    running = undefined;
    await server.close();
    await store.close();
  };
  await start();
  const need = (): NonNullable<typeof running> => {
    if (running === undefined) throw new Error('the host is stopped');
    return running;
  };
  return {
    url: `http://127.0.0.1:${port}`,
    dir,
    journal: (sessionId) => need().store.open(sessionId),
    async createSession(title) {
      const cwd = join(dir, `work-${Math.random().toString(36).slice(2, 8)}`);
      await mkdir(cwd, { recursive: true });
      const journal = await need().store.create({ cwd, title, model: 'demo' });
      return journal.header.sessionId;
    },
    stop,
    kill,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
