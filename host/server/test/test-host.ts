import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConnectError, createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport } from '@connectrpc/connect-node';
import {
  assistantMessage,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { SessionService } from '@dsh/gen/service';
import { createJournalStore, type FileJournalStore } from '@dsh/journal-file';
import { startServer, type RunningServer, type ServerOptions } from '../src/index.js';

/** A real host on 127.0.0.1 over a temporary data dir, with Connect and gRPC clients. */
export interface TestHost {
  readonly dir: string;
  readonly store: FileJournalStore;
  readonly server: RunningServer;
  readonly logs: string[];
  /** Connect protocol over HTTP/1.1. */
  readonly client: Client<typeof SessionService>;
  /** A client for another protocol or with interceptors. */
  clientFor(
    kind: 'connect-h1' | 'connect-h2' | 'connect-binary' | 'grpc',
    interceptors?: Interceptor[],
  ): Client<typeof SessionService>;
  close(): Promise<void>;
}

/** Starts a test host; `options` override the server options. */
export async function startTestHost(
  options: Partial<Omit<ServerOptions, 'store'>> & { fixtureDirs?: string[] } = {},
): Promise<TestHost> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-server-test-'));
  const store = await createJournalStore({
    dataDir: join(dir, 'sessions'),
    fixtureDirs: options.fixtureDirs,
  });
  const logs: string[] = [];
  const server = await startServer({
    port: 0,
    defaultCwd: dir,
    log: (line) => logs.push(line),
    search: store.search,
    ...options,
    store,
  });
  const clientFor: TestHost['clientFor'] = (kind, interceptors = []) => {
    const transport =
      kind === 'grpc'
        ? createGrpcTransport({ baseUrl: server.url, interceptors })
        : createConnectTransport({
            baseUrl: server.url,
            httpVersion: kind === 'connect-h2' ? '2' : '1.1',
            useBinaryFormat: kind === 'connect-binary',
            interceptors,
          });
    return createClient(SessionService, transport);
  };
  return {
    dir,
    store,
    server,
    logs,
    client: clientFor('connect-h1'),
    clientFor,
    async close() {
      await server.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The events of `turns` conversation turns: each is a user message, an assistant
 * message calling a tool, its result, a final assistant message and a turn end
 * (7 events and 3 messages per turn).
 */
export function conversation(turns: number, firstTurn = 1): Payload[] {
  const out: Payload[] = [];
  for (let turn = firstTurn; turn < firstTurn + turns; turn += 1) {
    const callId = `call-${turn}`;
    out.push(
      turnStart(turn),
      userMessage(`question ${turn}`),
      assistantMessage({ turn }, ['looking', toolCallBlock(callId, 'bash', { command: 'ls' })]),
      toolCall(callId, 'bash', { command: 'ls' }, { turn }),
      toolResult(callId, `output ${turn}`),
      assistantMessage({ turn, step: 1 }, [`answer ${turn}`]),
      turnEnd(turn),
    );
  }
  return out;
}

/** Reads `count` frames from a stream iterator. */
export async function take<T>(it: AsyncIterator<T>, count: number): Promise<T[]> {
  const out: T[] = [];
  while (out.length < count) {
    const next = await it.next();
    if (next.done === true) break;
    out.push(next.value);
  }
  return out;
}

/** The iterator of a server stream, for reading it frame by frame. */
export function iterate<T>(stream: AsyncIterable<T>): AsyncIterator<T> {
  return stream[Symbol.asyncIterator]();
}

/** The error an RPC failed with, as a `ConnectError`; `undefined` when it succeeded. */
export async function rpcError(promise: Promise<unknown>): Promise<ConnectError | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return ConnectError.from(error);
  }
}
