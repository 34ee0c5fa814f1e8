import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SessionEvent } from '@dsh/gen/events';

// Host modules are loaded by URL so the web client's type-check never follows host
// sources; these are the shapes the browser tests use.
interface HostJournal {
  readonly length: number;
  append(payloads: readonly SessionEvent['payload'][]): Promise<SessionEvent[]>;
}
interface HostStore {
  open(sessionId: string): Promise<HostJournal>;
  create(init: {
    cwd: string;
    title?: string;
    model?: string;
  }): Promise<{ header: { sessionId: string } }>;
  close(): Promise<void>;
}
interface HostServer {
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}
interface AgentRuntime {
  close(): Promise<void>;
}
interface Tools {
  tools: unknown[];
  dispose(): Promise<void>;
}
interface HostModules {
  createJournalStore(options: { dataDir: string; fixtureDirs?: string[] }): Promise<HostStore>;
  startServer(options: Record<string, unknown>): Promise<HostServer>;
  createAgentRuntime(options: Record<string, unknown>): AgentRuntime;
  createDemoProvider(options: { chunkDelayMs?: number }): unknown;
  createFirstPartyTools(options: { homeDir?: string }): Tools;
}

const repo = new URL('../../../', import.meta.url);
const hostModule = async (path: string): Promise<Record<string, unknown>> =>
  (await import(/* @vite-ignore */ new URL(`host/src/${path}`, repo).href)) as Record<
    string,
    unknown
  >;

async function hostModules(): Promise<HostModules> {
  const [journal, server, agent, providers, tools] = await Promise.all([
    hostModule('journal/index.ts'),
    hostModule('server/index.ts'),
    hostModule('agent/index.ts'),
    hostModule('providers/index.ts'),
    hostModule('tools/index.ts'),
  ]);
  return { ...journal, ...server, ...agent, ...providers, ...tools } as unknown as HostModules;
}

/**
 * The index of the demo model's first scripted step that calls `tool` (the test host's
 * demo model has no host URL, so the web_fetch step is left out, as here). A session whose
 * last assistant call is `demo-0-<index - 1>-0` makes the demo model take that step next.
 */
export async function demoStepIndex(tool: string): Promise<number> {
  const script = (await hostModule('providers/demo-script.ts')) as {
    demoSteps(facts: { cwd: string; prompt: string; hostUrl: undefined }): {
      calls: readonly { name: string }[];
    }[];
  };
  const index = script
    .demoSteps({ cwd: '/nonexistent', prompt: '', hostUrl: undefined })
    .findIndex((step) => step.calls.some((call) => call.name === tool));
  if (index < 0) throw new Error(`the demo script has no step calling ${tool}`);
  return index;
}

/** The repository's fixture journals and the built web client. */
export const fixtureJournals = new URL('fixtures/journals', repo).pathname;
export const webRoot = new URL('client-web/dist', repo).pathname;

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
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Starts a host on 127.0.0.1 (port 0) serving `client-web/dist` and the fixture journals. */
export async function startWebHost(options: { chunkDelayMs?: number } = {}): Promise<WebHost> {
  const modules = await hostModules();
  const dir = await mkdtemp(join(tmpdir(), 'dsh-web-test-'));
  let port = 0;
  let running:
    { store: HostStore; agent: AgentRuntime; tools: Tools; server: HostServer } | undefined;
  const start = async (): Promise<void> => {
    const store = await modules.createJournalStore({
      dataDir: join(dir, 'sessions'),
      fixtureDirs: [fixtureJournals],
    });
    const tools = modules.createFirstPartyTools({ homeDir: dir });
    const agent = modules.createAgentRuntime({
      store,
      provider: modules.createDemoProvider({ chunkDelayMs: options.chunkDelayMs ?? 40 }),
      tools: tools.tools,
      spillRoot: join(dir, 'spill'),
    });
    const server = await modules.startServer({
      store,
      agent,
      port,
      webRoot,
      defaultCwd: dir,
      defaultModel: 'demo',
      follow: { heartbeatMs: 1_000 },
      log: () => {},
    });
    port = server.port;
    running = { store, agent, tools, server };
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
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
