import type { DescMessage } from '@bufbuild/protobuf';
import {
  AgentErrorSchema,
  ApprovalRequestedSchema,
  ApprovalResolvedSchema,
  AssistantChunkSchema,
  AssistantMessageSchema,
  CodeDispatchSchema,
  CodeDispatchStartSchema,
  ContextCompactionSchema,
  ContextMessageSchema,
  InputQueuedSchema,
  InputUnqueuedSchema,
  QuestionRequestedSchema,
  QuestionResolvedSchema,
  SessionArchivedSchema,
  SessionRenamedSchema,
  SteeringMessageSchema,
  ToolCallSchema,
  ToolOutputSchema,
  ToolResultSchema,
  TurnEndSchema,
  TurnStartSchema,
  UserMessageSchema,
  type SessionEvent,
} from '@dsh/gen/events';

/** The payload cases the schema knows; `extension` carries every other journal type. */
export type KnownPayloadCase = Exclude<NonNullable<SessionEvent['payload']['case']>, 'extension'>;

/**
 * The journal `type` name and payload schema of every known event. One table, so the
 * journal's names and the proto's oneof cases cannot drift apart.
 */
export const eventTypes: Readonly<Record<KnownPayloadCase, { type: string; schema: DescMessage }>> =
  {
    userMessage: { type: 'user/message', schema: UserMessageSchema },
    steeringMessage: { type: 'steering/message', schema: SteeringMessageSchema },
    contextMessage: { type: 'context/message', schema: ContextMessageSchema },
    assistantChunk: { type: 'assistant/chunk', schema: AssistantChunkSchema },
    assistantMessage: { type: 'assistant/message', schema: AssistantMessageSchema },
    toolCall: { type: 'tool/call', schema: ToolCallSchema },
    toolResult: { type: 'tool/result', schema: ToolResultSchema },
    codeDispatchStart: { type: 'tool/code-dispatch-start', schema: CodeDispatchStartSchema },
    codeDispatch: { type: 'tool/code-dispatch', schema: CodeDispatchSchema },
    toolOutput: { type: 'tool/output', schema: ToolOutputSchema },
    approvalRequested: { type: 'approval/requested', schema: ApprovalRequestedSchema },
    approvalResolved: { type: 'approval/resolved', schema: ApprovalResolvedSchema },
    questionRequested: { type: 'question/requested', schema: QuestionRequestedSchema },
    questionResolved: { type: 'question/resolved', schema: QuestionResolvedSchema },
    turnStart: { type: 'turn/start', schema: TurnStartSchema },
    turnEnd: { type: 'turn/end', schema: TurnEndSchema },
    agentError: { type: 'agent/error', schema: AgentErrorSchema },
    contextCompaction: { type: 'context/compaction', schema: ContextCompactionSchema },
    inputQueued: { type: 'input/queued', schema: InputQueuedSchema },
    inputUnqueued: { type: 'input/unqueued', schema: InputUnqueuedSchema },
    sessionRenamed: { type: 'session/renamed', schema: SessionRenamedSchema },
    sessionArchived: { type: 'session/archived', schema: SessionArchivedSchema },
  };

/** Journal type name -> payload case, for decoding. */
export const payloadCaseByType: ReadonlyMap<string, KnownPayloadCase> = new Map(
  (Object.keys(eventTypes) as KnownPayloadCase[]).map((c) => [eventTypes[c].type, c]),
);

/** The journal types that open a message: pages are cut right before them. */
export const messageTypes: ReadonlySet<string> = new Set(['user/message', 'assistant/message']);
