/** Token usage, cost and context facts of a session, from its baseline and window. */
export {
  noTokens,
  sessionUsage,
  type ContextFacts,
  type CostFacts,
  type SessionUsage,
  type TokenCounts,
  type TurnUsageFacts,
} from './session-usage.js';
export { compactCount, exactCount, usdLabel } from './usage-label.js';
