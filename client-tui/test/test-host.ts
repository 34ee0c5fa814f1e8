import type { SessionEvent } from '@dsh/gen/events';
import { createAgentRuntime, type ApprovalPolicy } from '@dsh/agent';
import type { Payload } from '@dsh/fixtures';
import { createJournalStore } from '@dsh/journal-file';
import { createDemoProvider, type ModelProvider } from '@dsh/providers';
import { startServer } from '@dsh/server';
import { createFirstPartyTools } from '@dsh/tools';

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

/**
 * Starts a host on 127.0.0.1 (`port` 0 picks one) over `dataDir` and read-only
 * `fixtureDirs`, with the first-party tools and the offline demo model (or `provider`).
 */
export async function startTestHost(options: {
  dataDir: string;
  fixtureDirs?: readonly string[];
  port?: number;
  provider?: ModelProvider;
  approvals?: Record<string, ApprovalPolicy>;
}): Promise<TestHost> {
  const store = await createJournalStore({
    dataDir: options.dataDir,
    fixtureDirs: [...(options.fixtureDirs ?? [])],
  });
  const tools = createFirstPartyTools({ homeDir: options.dataDir });
  const agent = createAgentRuntime({
    store,
    provider: options.provider ?? createDemoProvider({ chunkDelayMs: 5 }),
    tools: tools.tools,
    approvals: options.approvals ?? {},
  });
  const running = await startServer({
    store,
    search: store.search,
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
