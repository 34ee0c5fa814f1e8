import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import type { SessionEvent } from '@dsh/gen/events';
import { SessionService } from '@dsh/gen/service';
import { journalsDir } from '@dsh/fixtures/journals';
import { createJournalStore } from '@dsh/journal-file';
import { startServer, type RunningServer } from '@dsh/server';
import type { JournalStore } from '@dsh/journal';

/** The parts of a host journal the tests use. */
interface HostJournal {
  readonly length: number;
  append(payloads: readonly SessionEvent['payload'][]): Promise<SessionEvent[]>;
  read(from: number, to: number): Promise<SessionEvent[]>;
}

/** The fixture journals of the repository. */
export const fixtureJournals = journalsDir;

/** A real host on 127.0.0.1 (port 0) over a temporary data dir plus the fixture journals. */
export interface RealHost {
  readonly dir: string;
  readonly url: string;
  readonly client: Client<typeof SessionService>;
  /** The host's own journal of a session (appends reach followers like an agent's would). */
  journal(sessionId: string): Promise<HostJournal>;
  /** Stops the server and the store; `start` brings both back on the same port. */
  stop(): Promise<void>;
  /** Opens the store, runs `beforeListen` (e.g. appends made while the host was down), serves. */
  start(
    beforeListen?: (journal: (sessionId: string) => Promise<HostJournal>) => Promise<void>,
  ): Promise<void>;
  close(): Promise<void>;
}

/** Options of `startRealHost`. */
export interface RealHostOptions {
  /** The store's `longScanBytes`: opens scanning more than this serve the tail backwards. */
  readonly longScanBytes?: number;
}

/** Starts a real host; heartbeats every 200 ms so idle streams stay observable. */
export async function startRealHost(options: RealHostOptions = {}): Promise<RealHost> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-live-test-'));
  let store: JournalStore | undefined;
  let server: RunningServer | undefined;
  let port = 0;
  const start = async (
    beforeListen?: (journal: (sessionId: string) => Promise<HostJournal>) => Promise<void>,
  ): Promise<void> => {
    const opened = await createJournalStore({
      dataDir: join(dir, 'sessions'),
      fixtureDirs: [fixtureJournals],
      longScanBytes: options.longScanBytes,
    });
    store = opened;
    const search = opened.search;
    await beforeListen?.((sessionId) => opened.open(sessionId));
    server = await startServer({
      store,
      search,
      port,
      defaultCwd: dir,
      follow: { heartbeatMs: 200 },
      log: () => {},
    });
    port = server.port;
  };
  const stop = async (): Promise<void> => {
    await server?.close();
    await store?.close();
    server = undefined;
    store = undefined;
  };
  await start();
  const url = `http://127.0.0.1:${port}`;
  const client = createClient(
    SessionService,
    createConnectTransport({ baseUrl: url, httpVersion: '1.1' }),
  );
  return {
    dir,
    url,
    client,
    journal(sessionId) {
      if (store === undefined) throw new Error('the host is stopped');
      return store.open(sessionId);
    },
    stop,
    start,
    async close() {
      await stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `check` every 10 ms until it returns true; fails after `timeoutMs` with `what`. */
export async function until(what: string, check: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
