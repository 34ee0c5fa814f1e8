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

/** The step being accumulated and its first chunk (seq and time of the partial). */
export interface PartialState {
  readonly turn: number;
  readonly step: number;
  readonly seq: number;
  readonly time: Timestamp | undefined;
}

const noBlocks: readonly AssistantBlock[] = [];

/**
 * Folds the `assistant/chunk` events of one model step into blocks. A chunk of another
 * step starts over (the old step's chunks are dropped: its final message never came).
 * Each chunk replaces only the block it touches, so untouched blocks keep identity; a
 * chunk that changes nothing keeps the projected partial. The block array is copied
 * only when a chunk changes it after it was projected (copy on write), so a chunk
 * costs O(blocks of the step), not O(text).
 */
export class PartialAccumulator {
  state: PartialState | undefined;
  /** Message index of each block in `items`, ascending; never shared. */
  private indexes: number[] = [];
  /** The blocks in message order; frozen by convention once `shared`. */
  private items: AssistantBlock[] = [];
  /**
   * Tool-call blocks by message index that have no call id or no name yet. They are not
   * shown (a card with neither is empty, and a call without an id cannot be matched to
   * its result) and a turn end drops them.
   */
  private readonly incomplete = new Map<number, ToolCallAssistantBlock>();
  /**
   * When each reasoning block of the step streamed, by message index: its first chunk,
   * its last delta, and its end (its `blockEnd`, or the first chunk of a later block).
   */
  private readonly reasoning = new Map<number, { start: number; last: number; end?: number }>();
  private shared = false;
  private changed = false;
  private projected: PartialMessage | undefined;

  /** Adds one chunk; a delta of the wrong kind for its block is ignored. */
  chunk(at: BlockOrigin, value: StreamChunk['chunk']): void {
    const state = this.state;
    if (state === undefined || state.turn !== at.turn || state.step !== at.step) {
      this.state = { turn: at.turn, step: at.step, seq: at.seq, time: at.time };
      this.indexes = [];
      this.items = [];
      this.incomplete.clear();
      this.reasoning.clear();
      this.shared = false;
      this.changed = true;
    }
    this.time(at, value);
    switch (value.case) {
      case 'blockStart':
        return this.put(value.value.index, emptyBlock(value.value.blockType, at));
      case 'textDelta':
      case 'reasoningDelta': {
        const kind = value.case === 'textDelta' ? 'text' : 'reasoning';
        const { index, text } = value.value;
        const block = this.get(index);
        if (block === undefined) return this.put(index, { kind, text });
        if (block.kind === kind && text !== '') this.put(index, { kind, text: block.text + text });
        return;
      }
      case 'toolCallDelta': {
        const delta = value.value;
        const block = this.get(delta.index);
        if (block === undefined) {
          const tool = headBlock(delta.id, delta.name ?? '', delta.argumentsDelta, at);
          return this.put(delta.index, { kind: 'tool-call', callId: tool.callId, tool });
        }
        if (block.kind !== 'tool-call') return;
        const tool: ToolCallBlock = {
          ...block.tool,
          callId: delta.id === '' ? block.tool.callId : delta.id,
          name: delta.name ?? block.tool.name,
          argsRaw: block.tool.argsRaw + delta.argumentsDelta,
        };
        return this.put(delta.index, { kind: 'tool-call', callId: tool.callId, tool });
      }
      case 'blockEnd':
        if (value.value.block === undefined) return;
        return this.put(value.value.index, assistantBlock(value.value.block, at));
      case 'usage':
      case 'finish':
      case undefined:
        return;
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
    this.indexes = [];
    this.items = [];
    this.incomplete.clear();
    this.reasoning.clear();
    this.shared = false;
    this.changed = true;
  }

  /**
   * How long each reasoning block of the step took to stream, in ms by message index,
   * from the chunks' times; blocks whose chunks carry no time are absent.
   */
  reasoningDurations(): Map<number, number> {
    const durations = new Map<number, number>();
    for (const [index, { start, last, end }] of this.reasoning) {
      durations.set(index, Math.max(0, (end ?? last) - start));
    }
    return durations;
  }

  /** Notes when a reasoning block starts, streams and ends. */
  private time(at: BlockOrigin, value: StreamChunk['chunk']): void {
    const ms = timeMs(at.time);
    if (ms === undefined || value.case === undefined || !('index' in value.value)) return;
    const index = value.value.index;
    for (const [other, times] of this.reasoning) {
      if (other < index && times.end === undefined) times.end = ms;
    }
    const reasoningStart =
      (value.case === 'blockStart' && value.value.blockType === BlockType.REASONING) ||
      value.case === 'reasoningDelta';
    const times = this.reasoning.get(index);
    if (times === undefined) {
      if (reasoningStart) this.reasoning.set(index, { start: ms, last: ms });
      return;
    }
    if (times.end !== undefined) return;
    if (value.case === 'blockEnd') times.end = ms;
    else times.last = ms;
  }

  /** A copy of the partial's shown blocks in message order (no incomplete tool calls). */
  blocks(): AssistantBlock[] {
    return this.items.slice();
  }

  /**
   * The immutable view, made only after a change. `previous` (a rebuilt window's old
   * partial) is returned instead when it holds the same facts.
   */
  project(previous?: PartialMessage): PartialMessage | undefined {
    if (this.changed) {
      const state = this.state;
      this.shared = true;
      const fresh =
        state === undefined
          ? undefined
          : {
              turn: state.turn,
              step: state.step,
              seq: state.seq,
              blocks: this.items.length === 0 ? noBlocks : this.items,
            };
      const projected = previous === undefined ? fresh : reusePartial(fresh, previous);
      // Later chunks start from the blocks the snapshot shows, so reused blocks stay reused.
      if (projected !== undefined) this.items = projected.blocks as AssistantBlock[];
      this.projected = projected;
      this.changed = false;
    }
    return this.projected;
  }

  private get(index: number): AssistantBlock | undefined {
    const indexes = this.indexes;
    for (let i = indexes.length - 1; i >= 0; i--) if (indexes[i] === index) return this.items[i];
    return this.incomplete.get(index);
  }

  /**
   * Sets the block at message `index`; a block with the same facts changes nothing. A
   * tool call without an id or a name waits in `incomplete` instead of being shown.
   */
  private put(index: number, block: AssistantBlock): void {
    if (block.kind === 'tool-call' && (block.callId === '' || block.tool.name === '')) {
      this.incomplete.set(index, block);
      this.remove(index);
      return;
    }
    this.incomplete.delete(index);
    const indexes = this.indexes;
    let i = indexes.length - 1;
    while (i >= 0 && (indexes[i] as number) > index) i--;
    const replace = i >= 0 && indexes[i] === index;
    if (replace && sameBlock(this.items[i], block)) return;
    if (this.shared) {
      this.items = this.items.slice();
      this.shared = false;
    }
    if (replace) this.items[i] = block;
    else {
      indexes.splice(i + 1, 0, index);
      this.items.splice(i + 1, 0, block);
    }
    this.changed = true;
  }

  /** Takes the shown block at message `index` out, if there is one. */
  private remove(index: number): void {
    const i = this.indexes.lastIndexOf(index);
    if (i < 0) return;
    if (this.shared) {
      this.items = this.items.slice();
      this.shared = false;
    }
    this.indexes.splice(i, 1);
    this.items.splice(i, 1);
    this.changed = true;
  }
}

type ToolCallAssistantBlock = Extract<AssistantBlock, { kind: 'tool-call' }>;

/** Blocks with the same facts (tool blocks by identity), as snapshot reuse compares them. */
function sameBlock(a: AssistantBlock | undefined, b: AssistantBlock): boolean {
  if (a === undefined || a.kind !== b.kind) return false;
  if (a.kind === 'tool-call')
    return b.kind === 'tool-call' && a.callId === b.callId && a.tool === b.tool;
  return b.kind !== 'tool-call' && a.text === b.text;
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
    answers: undefined,
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

function timeMs(time: Timestamp | undefined): number | undefined {
  return time === undefined
    ? undefined
    : Number(time.seconds) * 1000 + Math.floor(time.nanos / 1e6);
}
