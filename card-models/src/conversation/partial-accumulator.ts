import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { BlockType, type ContentBlock, type StreamChunk } from '@dsh/gen/content';
import { reusePartial } from './reuse.js';
import type { AssistantBlock, PartialMessage, ToolCallBlock } from './types.js';

/** Where a block was produced: the step and the event that carried it. */
export interface BlockOrigin {
  readonly turn: number;
  readonly step: number;
  readonly seq: number;
  readonly time: Timestamp | undefined;
}

/** The partial being accumulated; blocks are keyed by their index in the final message. */
export interface PartialState {
  readonly turn: number;
  readonly step: number;
  readonly seq: number;
  readonly time: Timestamp | undefined;
  readonly blocks: Map<number, AssistantBlock>;
}

/**
 * Folds the `assistant/chunk` events of one model step into blocks. A chunk of another
 * step starts over (the old step's chunks are dropped: its final message never came).
 * Each chunk replaces only the block it touches, so untouched blocks keep identity.
 */
export class PartialAccumulator {
  state: PartialState | undefined;
  changed = false;
  private projected: PartialMessage | undefined;

  /** Adds one chunk; a delta of the wrong kind for its block is ignored. */
  chunk(at: BlockOrigin, value: StreamChunk['chunk']): void {
    let state = this.state;
    if (state === undefined || state.turn !== at.turn || state.step !== at.step) {
      state = { turn: at.turn, step: at.step, seq: at.seq, time: at.time, blocks: new Map() };
      this.state = state;
    }
    this.changed = true;
    const blocks = state.blocks;
    switch (value.case) {
      case 'blockStart':
        blocks.set(value.value.index, emptyBlock(value.value.blockType, at));
        break;
      case 'textDelta':
      case 'reasoningDelta': {
        const kind = value.case === 'textDelta' ? 'text' : 'reasoning';
        const block = blocks.get(value.value.index);
        if (block === undefined) blocks.set(value.value.index, { kind, text: value.value.text });
        else if (block.kind === kind) {
          blocks.set(value.value.index, { kind, text: block.text + value.value.text });
        }
        break;
      }
      case 'toolCallDelta': {
        const delta = value.value;
        const block = blocks.get(delta.index);
        if (block === undefined) {
          const tool = headBlock(delta.id, delta.name ?? '', delta.argumentsDelta, at);
          blocks.set(delta.index, { kind: 'tool-call', callId: tool.callId, tool });
        } else if (block.kind === 'tool-call') {
          const tool: ToolCallBlock = {
            ...block.tool,
            callId: delta.id === '' ? block.tool.callId : delta.id,
            name: delta.name ?? block.tool.name,
            argsRaw: block.tool.argsRaw + delta.argumentsDelta,
          };
          blocks.set(delta.index, { kind: 'tool-call', callId: tool.callId, tool });
        }
        break;
      }
      case 'blockEnd':
        if (value.value.block !== undefined) {
          blocks.set(value.value.index, assistantBlock(value.value.block, at));
        }
        break;
      case 'usage':
      case 'finish':
      case undefined:
        break;
      default: {
        const unhandled: never = value;
        return unhandled;
      }
    }
  }

  /** Drops the partial. */
  clear(): void {
    if (this.state === undefined) return;
    this.state = undefined;
    this.changed = true;
  }

  /** The partial's blocks in message order. */
  blocks(): AssistantBlock[] {
    const state = this.state;
    if (state === undefined) return [];
    return [...state.blocks.entries()].sort((a, b) => a[0] - b[0]).map((entry) => entry[1]);
  }

  /** The immutable view, rebuilt only after a change; `previous` is kept when equal. */
  project(previous?: PartialMessage): PartialMessage | undefined {
    if (this.changed) {
      const state = this.state;
      const fresh =
        state === undefined
          ? undefined
          : { turn: state.turn, step: state.step, seq: state.seq, blocks: this.blocks() };
      this.projected = reusePartial(fresh, previous);
      this.changed = false;
    }
    return this.projected;
  }
}

/** True when blocks hold something worth keeping: text, reasoning or a tool call. */
export function hasContent(blocks: readonly AssistantBlock[]): boolean {
  return blocks.some((block) => block.kind === 'tool-call' || block.text !== '');
}

/**
 * One content block as an assistant block. Images and unset blocks read as empty text
 * (the schema's rule for blocks a reader does not show); a tool call gets a head-only block.
 */
export function assistantBlock(block: ContentBlock, at: BlockOrigin): AssistantBlock {
  const value = block.block;
  switch (value.case) {
    case 'text':
      return { kind: 'text', text: value.value.text };
    case 'reasoning':
      return { kind: 'reasoning', text: value.value.text };
    case 'toolCall': {
      const tool = headBlock(value.value.id, value.value.name, value.value.arguments, at);
      return { kind: 'tool-call', callId: tool.callId, tool };
    }
    case 'image':
    case undefined:
      return { kind: 'text', text: '' };
    default: {
      const unhandled: never = value;
      return unhandled;
    }
  }
}

/** A running tool block known only from its head. */
export function headBlock(
  callId: string,
  name: string,
  argsRaw: string,
  at: BlockOrigin,
): ToolCallBlock {
  return {
    callId,
    name,
    argsRaw,
    parentCallId: undefined,
    turn: at.turn,
    step: at.step,
    seq: at.seq,
    startTime: at.time,
    endTime: undefined,
    status: 'running',
    call: { seq: at.seq },
    result: undefined,
    subCalls: [],
  };
}

function emptyBlock(type: BlockType, at: BlockOrigin): AssistantBlock {
  if (type === BlockType.REASONING) return { kind: 'reasoning', text: '' };
  if (type === BlockType.TOOL_CALL) {
    const tool = headBlock('', '', '', at);
    return { kind: 'tool-call', callId: '', tool };
  }
  return { kind: 'text', text: '' };
}
