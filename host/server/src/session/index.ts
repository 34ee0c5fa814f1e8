/** The session layer: the SessionService implementation, follow and the agent boundary. */
export {
  createNoAgentControl,
  isAgentRefusal,
  type AgentControl,
  type AgentRefusal,
  type AgentRefusalKind,
  type AgentStatus,
} from './agent-control.js';
export { defaultFollowOptions, follow, type FollowOptions } from './follow.js';
export { followStream } from './follow-stream.js';
export { createSessionService, type SessionServiceDeps } from './session-service.js';
export { createStreamCounter, type StreamCounter, type StreamKind } from './stream-counter.js';
export { newestFirst, sessionSummary } from './session-summary.js';
export { watchSessions } from './watch-sessions.js';
