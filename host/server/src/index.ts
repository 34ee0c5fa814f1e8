/**
 * The host's network edge: one port for Connect, gRPC-Web and gRPC serving the session
 * service (Page, Follow, WatchSessions) over a journal store, with auth and static files.
 */
export {
  startServer,
  type RunningServer,
  type ServerOptions,
  type ServerStats,
} from './start-server.js';
export {
  createNoAgentControl,
  isAgentRefusal,
  type AgentControl,
  type AgentRefusal,
  type AgentRefusalKind,
  type QueuedInputFacts,
  type AgentStatus,
} from './session/agent-control.js';
export { hostVersion } from './host-version.js';
export {
  checkRequest,
  createAuthInterceptor,
  isLoopbackHost,
  resolveToken,
  tokenCookieName,
} from './auth.js';

// The parts `startServer` is made of, for a server that mounts them itself.
export { createErrorInterceptor, type RequestLog } from './error-interceptor.js';
export { createOnePortListener } from './one-port-listener.js';
export { defaultServerLimits, type ServerLimits } from './server-limits.js';
export { createStaticHandler, type StaticOptions } from './static-files.js';
export { renderStatusPage, type StatusFacts } from './status-page.js';
export { toConnectError, type InternalErrorLog } from './to-connect-error.js';
