import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, StreamChunkSchema, type ContentBlock } from '@dsh/gen/content';
import { ApprovalDecision, QuestionSchema, ToolErrorSchema, type ToolError } from '@dsh/gen/events';
import { eventPayloads, type EventPayload } from '@dsh/journal';
import type { ProviderChunk } from '@dsh/providers';
import type { ToolErrorInfo, UserAnswers, UserQuestion } from '@dsh/tools';

/** Payload factories for the events the agent records, so the loop reads as a story. */
export const payloads = {
  ...eventPayloads,
  contextMessage: (content: string, envelope: string, metaJson: string): EventPayload =>
    eventPayloads.contextMessage([textBlock(content)], 'host', envelope, metaJson),
  chunk: (turn: number, step: number, chunk: ProviderChunk): EventPayload => ({
    case: 'assistantChunk',
    value: {
      $typeName: 'dsh.session.v1.AssistantChunk',
      turn,
      step,
      chunk: create(StreamChunkSchema, { chunk }),
    },
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
};

/** A text content block. */
export function textBlock(text: string): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'text', value: { text } } });
}

function toolError(info: ToolErrorInfo | undefined): ToolError | undefined {
  return info === undefined ? undefined : create(ToolErrorSchema, info);
}
