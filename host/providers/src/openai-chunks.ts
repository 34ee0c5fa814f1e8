import { create } from '@bufbuild/protobuf';
import {
  BlockType,
  ContentBlockSchema,
  UsageSchema,
  type ContentBlock,
  type Usage,
} from '@dsh/gen/content';
import type { ProviderChunk } from './provider.js';
import { ProviderError } from './provider-error.js';

type Block =
  | { kind: 'text' | 'reasoning'; index: number; text: string; open: boolean }
  | { kind: 'toolCall'; index: number; id: string; name: string; args: string; open: boolean };

/** Turns the JSON chunks of one chat-completions stream into dsh stream chunks. */
export interface OpenAiChunkMapper {
  /** The chunks one parsed SSE `data` object adds. */
  map(json: unknown): ProviderChunk[];
  /** Closes open blocks and yields `finish`; `sawFinish` tells whether the model finished. */
  end(): ProviderChunk[];
  readonly sawFinish: boolean;
}

/** Creates the mapper for one stream; `newId` names tool calls the server left unnamed. */
export function createOpenAiChunkMapper(newId: () => string): OpenAiChunkMapper {
  const blocks: Block[] = [];
  const toolBlocks = new Map<string, Extract<Block, { kind: 'toolCall' }>>();
  let lastToolKey: string | undefined;
  let current: Extract<Block, { kind: 'text' | 'reasoning' }> | undefined;
  let finishReason: string | undefined;

  const close = (block: Block): ProviderChunk => {
    block.open = false;
    return {
      case: 'blockEnd',
      value: { $typeName: 'dsh.session.v1.BlockEnd', index: block.index, block: finalBlock(block) },
    };
  };
  const closeCurrent = (out: ProviderChunk[]): void => {
    if (current) out.push(close(current));
    current = undefined;
  };
  const appendText = (kind: 'text' | 'reasoning', text: string, out: ProviderChunk[]): void => {
    if (current?.kind !== kind) {
      closeCurrent(out);
      current = { kind, index: blocks.length, text: '', open: true };
      blocks.push(current);
      const blockType = kind === 'text' ? BlockType.TEXT : BlockType.REASONING;
      out.push(blockStart(current.index, blockType));
    }
    current.text += text;
    const index = current.index;
    out.push(
      kind === 'text'
        ? { case: 'textDelta', value: { $typeName: 'dsh.session.v1.TextDelta', index, text } }
        : {
            case: 'reasoningDelta',
            value: { $typeName: 'dsh.session.v1.ReasoningDelta', index, text },
          },
    );
  };
  const toolDelta = (raw: Record<string, unknown>, out: ProviderChunk[]): void => {
    const fn = asRecord(raw['function']);
    const id = typeof raw['id'] === 'string' && raw['id'] !== '' ? raw['id'] : undefined;
    const key =
      typeof raw['index'] === 'number'
        ? String(raw['index'])
        : id !== undefined && ![...toolBlocks.values()].some((b) => b.id === id)
          ? `id:${id}`
          : (lastToolKey ?? '0');
    lastToolKey = key;
    let block = toolBlocks.get(key);
    const name = typeof fn['name'] === 'string' && fn['name'] !== '' ? fn['name'] : undefined;
    const rawArgs = fn['arguments'];
    const argsDelta =
      typeof rawArgs === 'string'
        ? rawArgs
        : rawArgs === undefined || rawArgs === null
          ? ''
          : JSON.stringify(rawArgs);
    const isNew = block === undefined;
    if (!block) {
      closeCurrent(out);
      block = {
        kind: 'toolCall',
        index: blocks.length,
        id: id ?? newId(),
        name: name ?? '',
        args: '',
        open: true,
      };
      blocks.push(block);
      toolBlocks.set(key, block);
      out.push(blockStart(block.index, BlockType.TOOL_CALL));
    } else if (name !== undefined && block.name === '') {
      block.name = name;
    }
    block.args += argsDelta;
    out.push({
      case: 'toolCallDelta',
      value: {
        $typeName: 'dsh.session.v1.ToolCallDelta',
        index: block.index,
        id: block.id,
        name: isNew || name !== undefined ? block.name : undefined,
        argumentsDelta: argsDelta,
      },
    });
  };

  return {
    get sawFinish() {
      return finishReason !== undefined;
    },
    map(json) {
      const out: ProviderChunk[] = [];
      if (typeof json !== 'object' || json === null || Array.isArray(json)) {
        throw new ProviderError(
          'provider_unavailable',
          `The model provider sent a stream chunk that is not a JSON object: ${JSON.stringify(json).slice(0, 200)}`,
        );
      }
      const chunk = asRecord(json);
      const error = asRecord(chunk['error']);
      if (Object.keys(error).length > 0) {
        const message =
          typeof error['message'] === 'string' ? error['message'] : JSON.stringify(error);
        throw new ProviderError(
          'provider_unavailable',
          `The model provider reported an error mid-stream: ${message}`,
        );
      }
      const choices = Array.isArray(chunk['choices']) ? chunk['choices'] : [];
      for (const rawChoice of choices) {
        const choice = asRecord(rawChoice);
        if (typeof choice['index'] === 'number' && choice['index'] !== 0) continue;
        const delta = asRecord(choice['delta']);
        const reasoning = delta['reasoning_content'] ?? delta['reasoning'];
        if (typeof reasoning === 'string' && reasoning !== '')
          appendText('reasoning', reasoning, out);
        if (typeof delta['content'] === 'string' && delta['content'] !== '')
          appendText('text', delta['content'], out);
        if (Array.isArray(delta['tool_calls'])) {
          for (const call of delta['tool_calls']) toolDelta(asRecord(call), out);
        }
        if (typeof choice['finish_reason'] === 'string' && choice['finish_reason'] !== '') {
          finishReason = choice['finish_reason'];
          for (const block of blocks) if (block.open) out.push(close(block));
          current = undefined;
        }
      }
      const usage = chunk['usage'];
      if (usage !== undefined && usage !== null)
        out.push({ case: 'usage', value: toUsage(asRecord(usage)) });
      return out;
    },
    end() {
      const out: ProviderChunk[] = [];
      for (const block of blocks) if (block.open) out.push(close(block));
      current = undefined;
      const reason =
        finishReason ?? (blocks.some((b) => b.kind === 'toolCall') ? 'tool_calls' : 'stop');
      out.push({ case: 'finish', value: { $typeName: 'dsh.session.v1.Finish', reason } });
      return out;
    },
  };
}

function blockStart(index: number, blockType: BlockType): ProviderChunk {
  return {
    case: 'blockStart',
    value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType },
  };
}

function finalBlock(block: Block): ContentBlock {
  switch (block.kind) {
    case 'text':
      return create(ContentBlockSchema, { block: { case: 'text', value: { text: block.text } } });
    case 'reasoning':
      return create(ContentBlockSchema, {
        block: { case: 'reasoning', value: { text: block.text } },
      });
    case 'toolCall':
      return create(ContentBlockSchema, {
        block: {
          case: 'toolCall',
          value: { id: block.id, name: block.name, arguments: block.args },
        },
      });
  }
}

/** Maps OpenAI usage (with DeepSeek's and OpenAI's cache fields) to the proto `Usage`. */
function toUsage(raw: Record<string, unknown>): Usage {
  const num = (value: unknown): number =>
    typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.floor(value) : 0;
  const prompt = num(raw['prompt_tokens']);
  const cached =
    num(raw['prompt_cache_hit_tokens']) ||
    num(asRecord(raw['prompt_tokens_details'])['cached_tokens']);
  return create(UsageSchema, {
    inputTokens: Math.max(0, prompt - cached),
    outputTokens: num(raw['completion_tokens']),
    cacheReadTokens: cached,
    reasoningTokens: num(asRecord(raw['completion_tokens_details'])['reasoning_tokens']),
  });
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
