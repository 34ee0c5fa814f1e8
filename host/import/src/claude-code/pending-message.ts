import { create } from '@bufbuild/protobuf';
import {
  BlockType,
  ContentBlockSchema,
  StreamChunkSchema,
  UsageSchema,
  type ContentBlock,
  type Usage,
} from '@dsh/gen/content';
import type { EventPayload } from '@dsh/journal';
import { textBlock } from '../content-blocks.js';
import { isRecord, numberOf, stringOf, type JsonRecord } from '../json-fields.js';
import { translateToolCall } from './translate-tool-call.js';

/** One block of the assistant message being merged from several transcript lines. */
export type PendingBlock =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; signature: string }
  | { kind: 'tool'; id: string; name: string; args: string }
  | { kind: 'other'; data: JsonRecord };

/** Token counts of one API message, as Claude Code reports them (cumulative per message). */
export interface TokenCounts {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
}

/**
 * The assistant message being merged: Claude Code writes one line per content block,
 * all with the API message's id, each repeating the usage so far.
 */
export interface PendingMessage {
  id: string;
  blocks: PendingBlock[];
  model: string;
  /** The latest (largest) usage the message's lines reported. */
  usage: TokenCounts | null;
  stop: string;
  /** Time (ms) of the message's latest line that had one. */
  time?: number;
  /** Blocks already shown as `assistant/chunk` previews while the transcript paused. */
  previewed: number;
}

/** Claude Code's `usage` object as token counts; `null` when it holds none. */
export function tokenCounts(usage: unknown): TokenCounts | null {
  if (!isRecord(usage)) return null;
  const count = (key: string): number => Math.max(Math.trunc(numberOf(usage, key) ?? 0), 0);
  return {
    input: count('input_tokens'),
    output: count('output_tokens'),
    cacheRead: count('cache_read_input_tokens'),
    cacheWrite: count('cache_creation_input_tokens'),
  };
}

/** The larger of two cumulative counts, field by field. */
export function maxCounts(a: TokenCounts | null, b: TokenCounts | null): TokenCounts | null {
  if (a === null) return b;
  if (b === null) return a;
  return {
    input: Math.max(a.input, b.input),
    output: Math.max(a.output, b.output),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
    cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
  };
}

/**
 * dsh usage for `counts` minus what earlier events of the same API message already
 * counted, so a message split by tool results into several events counts once in total.
 * `undefined` when nothing is left to count.
 */
export function usageDelta(
  counts: TokenCounts | null,
  counted: TokenCounts | null,
): Usage | undefined {
  if (counts === null) return undefined;
  const clamp = (n: number): number => Math.min(Math.max(n, 0), 4_294_967_295);
  const init = {
    inputTokens: clamp(counts.input - (counted?.input ?? 0)),
    outputTokens: clamp(counts.output - (counted?.output ?? 0)),
    cacheReadTokens: clamp(counts.cacheRead - (counted?.cacheRead ?? 0)),
    cacheWriteTokens: clamp(counts.cacheWrite - (counted?.cacheWrite ?? 0)),
  };
  if (Object.values(init).every((v) => v === 0)) return undefined;
  return create(UsageSchema, init);
}

/** A content block of an assistant line in pending form; unknown kinds are kept whole. */
export function pendingBlock(block: unknown): PendingBlock {
  if (!isRecord(block)) return { kind: 'other', data: { block } };
  if (block.type === 'text' && typeof block.text === 'string')
    return { kind: 'text', text: block.text };
  if (block.type === 'thinking' && typeof block.thinking === 'string') {
    return {
      kind: 'reasoning',
      text: block.thinking,
      signature: stringOf(block, 'signature') ?? '',
    };
  }
  if (block.type === 'redacted_thinking')
    return { kind: 'reasoning', text: '', signature: stringOf(block, 'data') ?? '' };
  if (block.type === 'tool_use' || block.type === 'server_tool_use') {
    if (typeof block.id === 'string' && typeof block.name === 'string') {
      const call = translateToolCall(block.name, block.input);
      return { kind: 'tool', id: block.id, name: call.name, args: call.arguments };
    }
  }
  return { kind: 'other', data: block };
}

/** The dsh content block of a pending block; `undefined` for blocks kept as extensions. */
export function contentOf(block: PendingBlock): ContentBlock | undefined {
  switch (block.kind) {
    case 'text':
      return textBlock(block.text);
    case 'reasoning':
      return create(ContentBlockSchema, {
        block: { case: 'reasoning', value: { text: block.text, signature: block.signature } },
      });
    case 'tool':
      return create(ContentBlockSchema, {
        block: {
          case: 'toolCall',
          value: { id: block.id, name: block.name, arguments: block.args },
        },
      });
    case 'other':
      return undefined;
    default: {
      const unknown: never = block;
      return unknown;
    }
  }
}

/**
 * `assistant/chunk` previews of the pending blocks not shown yet (a block start and its
 * final form each), so a live view shows a message whose transcript paused mid-message;
 * the `assistant/message` that follows replaces them.
 */
export function previewChunks(
  pending: PendingMessage,
  at: { turn: number; step: number },
): EventPayload[] {
  const out: EventPayload[] = [];
  const shown = pending.blocks.flatMap((block) => {
    const content = contentOf(block);
    return content === undefined ? [] : [{ block, content }];
  });
  for (let index = pending.previewed; index < shown.length; index += 1) {
    const { block, content } = shown[index]!;
    const blockType =
      block.kind === 'tool'
        ? BlockType.TOOL_CALL
        : block.kind === 'reasoning'
          ? BlockType.REASONING
          : BlockType.TEXT;
    out.push(chunk(at, { case: 'blockStart', value: { index, blockType } }));
    if (block.kind === 'tool') {
      const delta = { index, id: block.id, name: block.name, argumentsDelta: block.args };
      out.push(chunk(at, { case: 'toolCallDelta', value: delta }));
    }
    out.push(chunk(at, { case: 'blockEnd', value: { index, block: content } }));
  }
  pending.previewed = shown.length;
  return out;
}

type ChunkInit = Parameters<typeof create<typeof StreamChunkSchema>>[1];

function chunk(
  at: { turn: number; step: number },
  value: NonNullable<ChunkInit>['chunk'],
): EventPayload {
  return {
    case: 'assistantChunk',
    value: {
      $typeName: 'dsh.session.v1.AssistantChunk',
      ...at,
      chunk: create(StreamChunkSchema, { chunk: value }),
    },
  };
}
