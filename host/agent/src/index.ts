/** The agent runtime: one model loop per session over the journal, behind `AgentControl`. */
export {
  createAgentRuntime,
  type AgentRuntime,
  type AgentStatus,
  type AgentRuntimeOptions,
} from './agent-runtime.js';
export type { ForwardedAnswer, SessionOwnership } from './session-ownership.js';
export { AgentError, type AgentErrorKind } from './agent-error.js';
export type { QueuedInputFacts } from './input-queue.js';
export { approvalVerdict, type ApprovalVerdict } from './approval-policy.js';
export {
  noAllowedPaths,
  type AllowedPaths,
  type ApprovalPolicy,
  type ApprovalSettings,
} from './approval-settings.js';
export {
  closeDanglingTurn,
  hostStoppedReason,
  recoverDanglingTurn,
  type DanglingReason,
} from './dangling-turn.js';
export {
  createModelHistory,
  type HistoryEntry,
  type HistorySummary,
  type ModelHistory,
  type ModelHistoryOptions,
} from './model-history.js';
export { loadModelHistory } from './load-model-history.js';
export { estimateTokens, fixedTokens, messageTokens } from './token-estimate.js';
export { systemPrompt } from './system-prompt.js';
export {
  createLiveOutput,
  liveOutputLimits,
  type LiveOutput,
  type LiveOutputLimits,
} from './live-output.js';
