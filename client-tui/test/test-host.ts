import type { SessionEvent } from '@dsh/gen/events';
import type { Payload } from '@dsh/fixtures';

/** The parts of the host's journal API the tests use. */
export interface TestJournal {
  append(payloads: readonly Payload[]): Promise<SessionEvent[]>;
  readonly length: number;
}

/** A real host in this process: journal store, demo-model agent runtime, Connect server. */
export interface TestHost {
  readonly url: string;
  readonly port: number;
  readonly store: {
    open(sessionId: string): Promise<TestJournal>;
    create(init: {
      cwd: string;
      title?: string;
      sessionId?: string;
      model?: string;
    }): Promise<TestJournal & { header: { sessionId: string } }>;
  };
  /** Stops the server, the agent and the store (what killing the host does to clients). */
  close(): Promise<void>;
}

// The host runs from its TypeScript sources; it is loaded by path so client-tui's
// type-check (which does not include host sources) stays independent of it.
const hostSource = (path: string) => new URL(`../../host/src/${path}`, import.meta.url).pathname;

/**
 * Starts a host on 127.0.0.1 (`port` 0 picks one) over `dataDir` and read-only
 * `fixtureDirs`, with the offline demo model and the first-party tools.
 */
export async function startTestHost(options: {
  dataDir: string;
  fixtureDirs?: readonly string[];
  port?: number;
}): Promise<TestHost> {
  const journal = await import(hostSource('journal/index.ts'));
  const server = await import(hostSource('server/index.ts'));
  const agentModule = await import(hostSource('agent/index.ts'));
  const providers = await import(hostSource('providers/index.ts'));
  const toolsModule = await import(hostSource('tools/index.ts'));
  const store = await journal.createJournalStore({
    dataDir: options.dataDir,
    fixtureDirs: [...(options.fixtureDirs ?? [])],
  });
  const tools = toolsModule.createFirstPartyTools({ homeDir: options.dataDir });
  const agent = agentModule.createAgentRuntime({
    store,
    provider: providers.createDemoProvider({ chunkDelayMs: 5 }),
    tools: tools.tools,
  });
  const running = await server.startServer({
    store,
    agent,
    port: options.port ?? 0,
    log: () => {},
    follow: { heartbeatMs: 1000 },
  });
  return {
    url: running.url,
    port: running.port,
    store,
    async close() {
      await running.close();
      await agent.close();
      await tools.dispose();
      await store.close();
    },
  };
}
