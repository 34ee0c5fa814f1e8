/** Conversation assembly: a contiguous event window folded into immutable snapshots. */
export {
  createConversation,
  type ApplyResult,
  type Conversation,
  type WindowError,
} from './create-conversation.js';
export { pendingViews, unansweredNote, type PendingView } from './pending-views.js';
export { compactionLabel, type CompactionLabel, type CompactionNode } from './compaction-label.js';
export { waitingInputs, type WaitingInput } from './waiting-inputs.js';
export type {
  AssistantBlock,
  ConversationNode,
  ConversationSnapshot,
  LiveOutput,
  OpenTurn,
  PartialMessage,
  PendingItem,
  QueueChange,
  ToolCallBlock,
  ToolCallStatus,
  ToolResultFacts,
  WindowChange,
} from './types.js';
