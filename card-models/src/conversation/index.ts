/** Conversation assembly: a contiguous event window folded into immutable snapshots. */
export {
  createConversation,
  type ApplyResult,
  type Conversation,
  type WindowError,
} from './create-conversation.js';
export { pendingViews, unansweredNote, type PendingView } from './pending-views.js';
export { waitingInputs, type WaitingInput } from './waiting-inputs.js';
export type {
  AssistantBlock,
  ConversationNode,
  ConversationSnapshot,
  PartialMessage,
  PendingItem,
  QueueChange,
  ToolCallBlock,
  ToolCallStatus,
  ToolResultFacts,
  WindowChange,
} from './types.js';
