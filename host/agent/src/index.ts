/** The agent runtime: one model loop per session over the journal, behind `AgentControl`. */
export {
  createAgentRuntime,
  type AgentRuntime,
  type AgentStatus,
  type AgentRuntimeOptions,
} from './agent-runtime.js';
export type { QueuedInputFacts } from './agent-session.js';
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
export { createConversationHistory, type ConversationHistory } from './conversation-history.js';
export { systemPrompt } from './system-prompt.js';
