import { setMaxListeners } from 'node:events';
import { createServer as createHttpServer } from 'node:http';
import { createServer as createHttp2Server } from 'node:http2';
import type { Socket } from 'node:net';
import { ConnectError, createContextValues } from '@connectrpc/connect';
import { SessionService } from '@dsh/gen/service';
import type { JournalStore } from '@dsh/journal';
import { createNoAgentControl, type AgentControl } from './session/agent-control.js';
import { defaultFollowOptions, type FollowOptions } from './session/follow.js';
import { createBusyPacer } from './session/busy-pacer.js';
import { followStream } from './session/follow-stream.js';
import { SessionLister } from './session/list-sessions.js';
import { createSessionService, type SessionServiceDeps } from './session/session-service.js';
import { createStreamCounter, type StreamKind } from './session/stream-counter.js';
import {
  checkRequest,
  createAuthInterceptor,
  isLoopbackHost,
  requestAuthorityKey,
} from './auth.js';
import { connectionKey, createConnectionGuard, type ConnectionGuard } from './connection-guard.js';
import { createErrorInterceptor, type RequestLog } from './error-interceptor.js';
import { guardHttp2Sessions } from './guard-http2-sessions.js';
import { hostVersion } from './host-version.js';
import { createOnePortListener } from './one-port-listener.js';
import { answerRpcError, isRpcRequest } from './rpc-error-answer.js';
import { createRpcHandler, type NodeHandler, type NodeRequest } from './rpc-handler.js';
import { defaultServerLimits, type ServerLimits } from './server-limits.js';
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
  /** The models this host can run (`SessionServiceDeps.models`). */
  readonly models?: readonly string[];
  readonly follow?: Partial<FollowOptions>;
  /** Largest request message in bytes (1 MiB by default). */
  readonly readMaxBytes?: number;
  /** Largest response message in bytes (64 MiB by default). */
  readonly writeMaxBytes?: number;
  /** One line per failed request; stderr by default. */
  readonly log?: RequestLog;
  /** Timeouts and connection caps; `defaultServerLimits` fills in what is left out. */
  readonly limits?: Partial<ServerLimits>;
  /** The context of a session that continues another (`SessionServiceDeps.continuation`). */
  readonly continuation?: SessionServiceDeps['continuation'];
  /** Session search (`SessionServiceDeps.search`); without it Search is failed_precondition. */
  readonly search?: SessionServiceDeps['search'];
}

/** What a running server holds, for leak tests and soak runs (never sent on the wire). */
export interface ServerStats {
  /** Open TCP connections, and those that have not yet sent an authorized request. */
  readonly connections: number;
  readonly pendingConnections: number;
  /** Requests and streams in flight. */
  readonly requests: number;
  /** Follow and WatchSessions streams that still hold their listeners. */
  readonly streams: Readonly<Record<StreamKind, number>>;
}

/** A running server. */
export interface RunningServer {
  /** Base URL of RPCs and static files, e.g. `http://127.0.0.1:7420`. */
  readonly url: string;
  readonly port: number;
  /** Ends open streams, closes every connection and stops listening. */
  close(): Promise<void>;
  stats(): ServerStats;
}

/** Pending TCP connections the kernel queues for the host (capped by net.core.somaxconn). */
const acceptBacklog = 4_096;

/** The longest pause a batching follower takes between live frames on a saturated host. */
const maxFollowGapMs = 200;

/**
 * Serves `SessionService` and static files on one port: Connect and gRPC-Web over
 * HTTP/1.1, gRPC (and Connect) over h2c. Binding a non-loopback address without a
 * token is refused, so a host is never reachable from the network unauthenticated.
 */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1';
  const token = options.token === '' ? undefined : options.token;
  if (token === undefined && !isLoopbackHost(host)) {
    throw new Error(`binding ${host} needs a token: pass --token-file FILE or set DSH_TOKEN`);
  }
  const log = options.log ?? ((line: string) => process.stderr.write(line + '\n'));
  const version = options.version ?? hostVersion;
  const limits = { ...defaultServerLimits, ...options.limits };
  const shutdown = new AbortController();
  // Every call links its signal to this one; many concurrent streams are expected.
  setMaxListeners(0, shutdown.signal);
  const streams = createStreamCounter();
  const pacer = createBusyPacer(maxFollowGapMs);
  let url = '';
  const deps: SessionServiceDeps = {
    store: options.store,
    agent: options.agent ?? createNoAgentControl(),
    version,
    defaultCwd: options.defaultCwd ?? process.cwd(),
    defaultModel: options.defaultModel ?? '',
    ...(options.models === undefined ? {} : { models: options.models }),
    follow: { ...defaultFollowOptions, ...options.follow },
    streams,
    pace: pacer.beat,
    ...(options.continuation === undefined ? {} : { continuation: options.continuation }),
    ...(options.search === undefined ? {} : { search: options.search }),
  };
  const lister = new SessionLister(deps.store, deps.agent);
  const service = createSessionService(deps, lister);
  const rpc = createRpcHandler({
    routes: (router) => router.service(SessionService, service),
    direct: {
      streams: new Map([[`/${SessionService.typeName}/Follow`, followStream(deps)]]),
      unaries: new Map([[`/${SessionService.typeName}/ListSessions`, lister.unary()]]),
      refuse: (req) => {
        const access = requestAccess(token, req);
        return access.ok ? undefined : new ConnectError(access.message, access.code);
      },
    },
    interceptors: [createErrorInterceptor(log), createAuthInterceptor(token)],
    readMaxBytes: options.readMaxBytes ?? 1024 * 1024,
    writeMaxBytes: options.writeMaxBytes ?? 64 * 1024 * 1024,
    shutdownSignal: shutdown.signal,
    log,
    stallTimeoutMs: limits.stallTimeoutMs,
    contextValues: (req) =>
      createContextValues().set(
        requestAuthorityKey,
        req.headers[':authority']?.toString() ?? req.headers.host,
      ),
    fallback: createStaticHandler({
      webRoot: options.webRoot,
      token,
      stallTimeoutMs: limits.stallTimeoutMs,
      statusPage: async () =>
        renderStatusPage({
          version,
          location: options.store.location,
          sessionCount: (await options.store.list()).length,
          baseUrl: url,
          tokenRequired: token !== undefined,
        }),
    }),
  });
  const guard = createConnectionGuard(limits);
  const handler = guardRequests(rpc, guard, token);
  const http1 = createHttpServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: Math.max(limits.requestTimeoutMs, limits.headersTimeoutMs),
      keepAliveTimeout: limits.idleTimeoutMs,
      // How often Node checks the two timeouts above; its default (30 s) would stretch them.
      connectionsCheckingInterval: Math.max(
        50,
        Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4)),
      ),
    },
    handler,
  );
  // Node starts enforcing the two timeouts above when an http server emits 'listening';
  // this one never listens itself (the one-port listener hands it its sockets).
  http1.emit('listening');
  const http2 = createHttp2Server(
    { settings: { maxConcurrentStreams: limits.maxStreamsPerClient } },
    handler,
  );
  guardHttp2Sessions(http2, limits);
  const listener = createOnePortListener(http1, http2, {
    peekTimeoutMs: limits.headersTimeoutMs,
    admit: (socket) => guard.admit(socket),
  });
  const sockets = new Set<Socket>();
  listener.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    listener.once('error', reject);
    // A deeper accept queue than Node's 511 absorbs a crowd reconnecting at once (after a
    // host restart or a network blip) while the event loop is busy; the kernel caps it.
    listener.listen({ port: options.port ?? 0, host, backlog: acceptBacklog }, () => {
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
        pacer.close();
        http1.close();
        listener.close(() => resolve());
        // Open streams end with the shutdown signal; give them a moment to say so.
        setTimeout(() => {
          for (const socket of sockets) socket.destroy();
        }, 100).unref();
      });
      return closing;
    },
    stats() {
      const held = guard.stats();
      return {
        connections: held.connections,
        pendingConnections: held.pending,
        requests: held.streams,
        streams: { ...streams.open },
      };
    },
  };
}

/**
 * Wraps the request handler with the per-client checks of the connection guard: a
 * request that passes the access check marks its connection trusted (no longer evicted
 * to make room), and a client at its cap of requests in flight is answered
 * `resource_exhausted` (HTTP 429 for static files) without running the handler.
 */
function guardRequests(
  handler: NodeHandler,
  guard: ConnectionGuard,
  token: string | undefined,
): NodeHandler {
  return (req, res) => {
    const address = req.socket.remoteAddress ?? '?';
    const access = requestAccess(token, req);
    if (access.ok) guard.trust(connectionKey(req.socket));
    if (!guard.beginStream(address)) {
      const message =
        `too many requests in flight from ${address}: close some streams, or raise ` +
        '--max-streams-per-client';
      const path = (req.url ?? '').split('?', 1)[0]!;
      if (isRpcRequest(req, path)) answerRpcError(req, res, 'resource_exhausted', message);
      else {
        res.writeHead(429, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(message + '\n');
      }
      return;
    }
    res.once('close', () => guard.endStream(address));
    handler(req, res);
  };
}

/** `checkRequest` of a Node request's token, cookie and authority. */
function requestAccess(
  token: string | undefined,
  req: NodeRequest,
): ReturnType<typeof checkRequest> {
  return checkRequest(token, {
    authorization: req.headers.authorization,
    cookie: req.headers.cookie,
    authority: req.headers[':authority']?.toString() ?? req.headers.host,
  });
}
