/**
 * card-models: turns raw journal events into what both clients draw. Pure TypeScript:
 * no DOM, Vue, blessed or Node APIs.
 */

// Conversation assembly.
export type {
  AssistantBlock,
  ConversationNode,
  ConversationSnapshot,
  PartialMessage,
  PendingItem,
  ToolCallBlock,
  ToolCallStatus,
  ToolResultFacts,
  WindowChange,
} from './conversation/types.js';
