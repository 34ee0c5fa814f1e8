import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import type { Socket } from 'node:net';
import { createContextValues } from '@connectrpc/connect';
import { connectNodeAdapter } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';
import type { JournalStore } from '@dsh/journal';
import { createNoAgentControl, type AgentControl } from './session/agent-control.js';
import { defaultFollowOptions, type FollowOptions } from './session/follow.js';
import { createSessionService } from './session/session-service.js';
import { createAuthInterceptor, isLoopbackHost, requestAuthorityKey } from './auth.js';
import { createErrorInterceptor, type RequestLog } from './error-interceptor.js';
import { hostVersion } from './host-version.js';
import { createOnePortListener } from './one-port-listener.js';
import { createStaticHandler } from './static-files.js';
import { renderStatusPage } from './status-page.js';

/** Options of `startServer`. */
export interface ServerOptions {
  readonly store: JournalStore;
  /** The agent runtime; without one, Prompt/Cancel/Respond fail with failed_precondition. */
  readonly agent?: AgentControl;
  /** Address to bind; 127.0.0.1 by default. Any non-loopback address needs `token`. */
  readonly host?: string;
  /** Port to bind; 0 picks a free one. */
  readonly port?: number;
  /** Required bearer token; none means no auth (loopback only). */
  readonly token?: string;
  /** The built web client; `/` serves a status page while it holds no index.html. */
  readonly webRoot?: string;
  readonly version?: string;
  readonly defaultCwd?: string;
  readonly defaultModel?: string;
  readonly follow?: Partial<FollowOptions>;
  /** Largest request message in bytes (1 MiB by default). */
  readonly readMaxBytes?: number;
  /** Largest response message in bytes (64 MiB by default). */
  readonly writeMaxBytes?: number;
  /** One line per failed request; stderr by default. */
  readonly log?: RequestLog;
}

/** A running server. */
export interface RunningServer {
  /** Base URL of RPCs and static files, e.g. `http://127.0.0.1:7420`. */
  readonly url: string;
  readonly port: number;
  /** Ends open streams, closes every connection and stops listening. */
  close(): Promise<void>;
}

/**
 * Serves `SessionService` and static files on one port: Connect and gRPC-Web over
 * HTTP/1.1, gRPC (and Connect) over h2c. Binding a non-loopback address without a
 * token is refused, so a host is never reachable from the network unauthenticated.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token === '' ? undefined : options.token;
  if (token === undefined && !isLoopbackHost(host)) {
    throw new Error(`binding ${host} needs a token: pass --token or set DSH_TOKEN`);
  }
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const version = options.version ?? hostVersion;
  const shutdown = new AbortController();
  let url = '';
  const service = createSessionService({
    store: options.store,
    agent: options.agent ?? createNoAgentControl(),
    version,
    defaultCwd: options.defaultCwd ?? process.cwd(),
    defaultModel: options.defaultModel ?? '',
    follow: { ...defaultFollowOptions, ...options.follow },
  });
  const handler = connectNodeAdapter({
    routes: (router) => router.service(SessionService, service),
    interceptors: [createErrorInterceptor(log), createAuthInterceptor(token)],
    readMaxBytes: options.readMaxBytes ?? 1024 * 1024,
    writeMaxBytes: options.writeMaxBytes ?? 64 * 1024 * 1024,
    shutdownSignal: shutdown.signal,
    contextValues: (req) =>
      createContextValues().set(
        requestAuthorityKey,
        req.headers[':authority']?.toString() ?? req.headers.host,
      ),
    fallback: createStaticHandler({
      webRoot: options.webRoot,
      token,
      statusPage: async () =>
        renderStatusPage({
          version,
          dataDir: options.store.dataDir,
          sessionCount: (await options.store.list()).length,
          baseUrl: url,
          tokenRequired: token !== undefined,
        }),
    }),
  });
  const http1 = createHttpServer(handler);
  const http2 = createHttp2Server(handler);
  const listener = createOnePortListener(http1, http2);
  const sockets = new Set<Socket>();
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    listener.listen(options.port ?? 0, host, () => {
      listener.off('error', reject);
      resolve();
    });
  });
  const address = listener.address();
  const port = typeof address === 'object' && address !== null ? address.port : 0;
  url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    close() {
      closing ??= new Promise<void>((resolve) => {
        shutdown.abort();
        listener.close(() => resolve());
        // Open streams end with the shutdown signal; give them a moment to say so.
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 100).unref();
      });
      return closing;
    },
  };
}
