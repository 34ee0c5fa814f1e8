import { create } from '@bufbuild/protobuf';
import {
  ContentBlockSchema,
  StreamChunkSchema,
  type ContentBlock,
  type Usage,
} from '@dsh/gen/content';
import {
  ApprovalDecision,
  QuestionSchema,
  ToolErrorSchema,
  TurnEndReason,
  type ToolError,
} from '@dsh/gen/events';
import type { EventPayload } from '../journal/journal-types.js';
import type { ProviderChunk } from '../providers/provider.js';
import type { ToolErrorInfo, UserAnswers, UserQuestion } from '../tools/tool.js';

/** Payload factories for the events the agent records, so the loop reads as a story. */
export const payloads = {
  userMessage: (content: ContentBlock[], source: string): EventPayload => ({
    case: 'userMessage',
    value: { $typeName: 'dsh.session.v1.UserMessage', content, source },
  }),
  steeringMessage: (turn: number, content: ContentBlock[], source: string): EventPayload => ({
    case: 'steeringMessage',
    value: { $typeName: 'dsh.session.v1.SteeringMessage', turn, content, source },
  }),
  contextMessage: (content: string, envelope: string, metaJson: string): EventPayload => ({
    case: 'contextMessage',
    value: {
      $typeName: 'dsh.session.v1.ContextMessage',
      content: [textBlock(content)],
      source: 'host',
      envelope,
      metaJson,
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
  chunk: (turn: number, step: number, chunk: ProviderChunk): EventPayload => ({
    case: 'assistantChunk',
    value: {
      $typeName: 'dsh.session.v1.AssistantChunk',
      turn,
      step,
      chunk: create(StreamChunkSchema, { chunk }),
    },
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
  toolResult: (
    at: { turn: number; step: number },
    callId: string,
    result: { content: ContentBlock[]; isError: boolean; error?: ToolErrorInfo; metaJson: string },
  ): EventPayload => ({
    case: 'toolResult',
    value: {
      $typeName: 'dsh.session.v1.ToolResult',
      ...at,
      callId,
      content: result.content,
      isError: result.isError,
      error: toolError(result.error),
      metaJson: result.metaJson,
    },
  }),
  codeDispatchStart: (
    parentCallId: string,
    callId: string,
    name: string,
    args: string,
  ): EventPayload => ({
    case: 'codeDispatchStart',
    value: {
      $typeName: 'dsh.session.v1.CodeDispatchStart',
      parentCallId,
      callId,
      name,
      arguments: args,
    },
  }),
  codeDispatch: (
    parentCallId: string,
    callId: string,
    result: { content: ContentBlock[]; isError: boolean; error?: ToolErrorInfo },
  ): EventPayload => ({
    case: 'codeDispatch',
    value: {
      $typeName: 'dsh.session.v1.CodeDispatch',
      parentCallId,
      callId,
      content: result.content,
      isError: result.isError,
      error: toolError(result.error),
    },
  }),
  approvalRequested: (
    approvalId: string,
    callId: string,
    toolName: string,
    reason: string,
  ): EventPayload => ({
    case: 'approvalRequested',
    value: { $typeName: 'dsh.session.v1.ApprovalRequested', approvalId, callId, toolName, reason },
  }),
  approvalResolved: (approvalId: string, decision: ApprovalDecision): EventPayload => ({
    case: 'approvalResolved',
    value: { $typeName: 'dsh.session.v1.ApprovalResolved', approvalId, decision },
  }),
  questionRequested: (
    questionId: string,
    callId: string,
    questions: UserQuestion[],
  ): EventPayload => ({
    case: 'questionRequested',
    value: {
      $typeName: 'dsh.session.v1.QuestionRequested',
      questionId,
      callId,
      questions: questions.map((q) =>
        create(QuestionSchema, {
          question: q.question,
          header: q.header ?? '',
          options: (q.options ?? []).map((o) => ({
            label: o.label,
            description: o.description ?? '',
          })),
          multiSelect: q.multiSelect ?? false,
        }),
      ),
    },
  }),
  questionResolved: (questionId: string, answers: UserAnswers | 'cancelled'): EventPayload => ({
    case: 'questionResolved',
    value: {
      $typeName: 'dsh.session.v1.QuestionResolved',
      questionId,
      answers:
        answers === 'cancelled'
          ? []
          : answers.map((values) => ({ $typeName: 'dsh.session.v1.Answer' as const, values })),
      cancelled: answers === 'cancelled',
    },
  }),
  agentError: (message: string, code: string): EventPayload => ({
    case: 'agentError',
    value: { $typeName: 'dsh.session.v1.AgentError', message, code },
  }),
};

/** A text content block. */
export function textBlock(text: string): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'text', value: { text } } });
}

function toolError(info: ToolErrorInfo | undefined): ToolError | undefined {
  return info === undefined ? undefined : create(ToolErrorSchema, info);
}
