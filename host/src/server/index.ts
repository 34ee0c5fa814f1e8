/** The host's network edge: one port for Connect, gRPC-Web and gRPC, auth, static files. */
export {
  checkRequest,
  createAuthInterceptor,
  isLoopbackHost,
  resolveToken,
  tokenCookieName,
} from './auth.js';
export { createErrorInterceptor, type RequestLog } from './error-interceptor.js';
export { hostVersion } from './host-version.js';
export { createOnePortListener } from './one-port-listener.js';
export { defaultServerLimits, type ServerLimits } from './server-limits.js';
export {
  startServer,
  type RunningServer,
  type ServerOptions,
  type ServerStats,
} from './start-server.js';
export { createStaticHandler, type StaticOptions } from './static-files.js';
export { renderStatusPage, type StatusFacts } from './status-page.js';
export { toConnectError, type InternalErrorLog } from './to-connect-error.js';
