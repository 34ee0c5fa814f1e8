import { create } from '@bufbuild/protobuf';
import { UsageSchema, type ContentBlock, type Usage } from '@dsh/gen/content';
import { ExtensionEventSchema } from '@dsh/gen/events';
import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { eventPayloads, type EventPayload } from '@dsh/journal';
import { textBlock } from './content-blocks.js';
import { numberOf, type JsonRecord } from './json-fields.js';

/** The `source` of messages an import writes: marks them as typed in Claude Code. */
export const importSource = 'claude-code';

/** Payload factories for the events an import writes. */
export const importPayloads = {
  ...eventPayloads,
  userMessage: (content: ContentBlock[]): EventPayload =>
    eventPayloads.userMessage(content, importSource),
  steeringMessage: (turn: number, content: ContentBlock[]): EventPayload =>
    eventPayloads.steeringMessage(turn, content, importSource),
  contextMessage: (content: ContentBlock[], envelope: string, metaJson = ''): EventPayload =>
    eventPayloads.contextMessage(content, importSource, envelope, metaJson),
  /** A transcript line or block the importer does not map, kept whole as `claude-code/<kind>`. */
  extension: (kind: string, data: JsonRecord): EventPayload =>
    extensionPayload(importSource, kind, data),
};

/**
 * A line or item an importer does not map, kept whole as the extension `<agent>/<kind>`
 * (its JSON fields as they were), so nothing of the transcript is lost.
 */
export function extensionPayload(agent: string, kind: string, data: JsonRecord): EventPayload {
  return {
    case: 'extension',
    value: create(ExtensionEventSchema, {
      type: `${agent}/${kind}`,
      dataJson: JSON.stringify(data),
    }),
  };
}

/**
 * The settlement an import writes for a call its transcript never settled (the session
 * went on without a result): interrupted, as the agent settles a call a stop cut off.
 */
export function interruptedResult(
  at: { turn: number; step: number },
  callId: string,
): EventPayload {
  return {
    case: 'toolResult',
    value: {
      $typeName: 'dsh.session.v1.ToolResult',
      turn: at.turn,
      step: at.step,
      callId,
      content: [textBlock(interruptedMessage)],
      isError: true,
      error: {
        $typeName: 'dsh.session.v1.ToolError',
        name: 'Interrupted',
        code: errorCodes.interrupted,
        message: interruptedMessage,
      },
      metaJson: '',
    },
  };
}

/** dsh usage from an Anthropic `usage` object; `undefined` when it holds no counts. */
export function usageOf(usage: JsonRecord | undefined): Usage | undefined {
  if (usage === undefined) return undefined;
  const count = (key: string): number => {
    const value = numberOf(usage, key) ?? 0;
    return Math.min(Math.max(Math.trunc(value), 0), 4_294_967_295);
  };
  const init = {
    inputTokens: count('input_tokens'),
    outputTokens: count('output_tokens'),
    cacheReadTokens: count('cache_read_input_tokens'),
    cacheWriteTokens: count('cache_creation_input_tokens'),
  };
  if (Object.values(init).every((v) => v === 0)) return undefined;
  return create(UsageSchema, init);
}
