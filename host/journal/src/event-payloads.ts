import type { ContentBlock, Usage } from '@dsh/gen/content';
import { ToolOutputStream, type TurnEndReason, type UnqueueReason } from '@dsh/gen/events';
import type { EventPayload } from './journal-types.js';

/**
 * Payload factories for the events both the agent and an import write; each writer
 * binds its own `source` and adds the events only it records.
 */
export const eventPayloads = {
  userMessage: (content: ContentBlock[], source: string): EventPayload => ({
    case: 'userMessage',
    value: { $typeName: 'dsh.session.v1.UserMessage', content, source },
  }),
  steeringMessage: (turn: number, content: ContentBlock[], source: string): EventPayload => ({
    case: 'steeringMessage',
    value: { $typeName: 'dsh.session.v1.SteeringMessage', turn, content, source },
  }),
  contextMessage: (
    content: ContentBlock[],
    source: string,
    envelope: string,
    metaJson: string,
  ): EventPayload => ({
    case: 'contextMessage',
    value: { $typeName: 'dsh.session.v1.ContextMessage', content, source, envelope, metaJson },
  }),
  /** A delta of a running call's output, the combined stream (`tool/output`). */
  toolOutput: (callId: string, text: string, truncated: boolean): EventPayload => ({
    case: 'toolOutput',
    value: {
      $typeName: 'dsh.session.v1.ToolOutput',
      callId,
      stream: ToolOutputStream.COMBINED,
      text,
      truncated,
    },
  }),
  turnStart: (turn: number): EventPayload => ({
    case: 'turnStart',
    value: { $typeName: 'dsh.session.v1.TurnStart', turn },
  }),
  turnEnd: (turn: number, reason: TurnEndReason): EventPayload => ({
    case: 'turnEnd',
    value: { $typeName: 'dsh.session.v1.TurnEnd', turn, reason },
  }),
  assistantMessage: (
    at: { turn: number; step: number },
    content: ContentBlock[],
    usage: Usage | undefined,
    model: string,
    finishReason: string,
  ): EventPayload => ({
    case: 'assistantMessage',
    value: {
      $typeName: 'dsh.session.v1.AssistantMessage',
      ...at,
      content,
      usage,
      model,
      finishReason,
    },
  }),
  toolCall: (
    at: { turn: number; step: number },
    callId: string,
    name: string,
    args: string,
  ): EventPayload => ({
    case: 'toolCall',
    value: { $typeName: 'dsh.session.v1.ToolCall', ...at, callId, name, arguments: args },
  }),
  agentError: (message: string, code: string): EventPayload => ({
    case: 'agentError',
    value: { $typeName: 'dsh.session.v1.AgentError', message, code },
  }),
  inputQueued: (queueId: string, content: ContentBlock[], steer: boolean): EventPayload => ({
    case: 'inputQueued',
    value: { $typeName: 'dsh.session.v1.InputQueued', queueId, content, steer },
  }),
  inputUnqueued: (queueId: string, reason: UnqueueReason): EventPayload => ({
    case: 'inputUnqueued',
    value: { $typeName: 'dsh.session.v1.InputUnqueued', queueId, reason },
  }),
  sessionRenamed: (title: string): EventPayload => ({
    case: 'sessionRenamed',
    value: { $typeName: 'dsh.session.v1.SessionRenamed', title },
  }),
  sessionArchived: (archived: boolean): EventPayload => ({
    case: 'sessionArchived',
    value: { $typeName: 'dsh.session.v1.SessionArchived', archived },
  }),
};
