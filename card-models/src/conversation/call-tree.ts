import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { create } from '@bufbuild/protobuf';
import { ToolErrorSchema } from '@dsh/gen/events';
import { errorCodes, interruptedMessage } from '../contract/index.js';
import { reuseTool } from './reuse.js';
import type { LiveOutput, ToolCallBlock, ToolCallStatus, ToolResultFacts } from './types.js';

/** The mutable record behind one tool call; `block` is its last immutable projection. */
export interface CallEntry {
  readonly callId: string;
  readonly topLevel: boolean;
  /** The id named by the event that created a sub-call; undefined for top-level calls. */
  readonly parentCallId: string | undefined;
  /** The attached parent; undefined for top-level calls and for sub-calls waiting for theirs. */
  parent: CallEntry | undefined;
  name: string;
  argsRaw: string;
  turn: number;
  step: number;
  seq: number;
  startTime: Timestamp | undefined;
  endTime: Timestamp | undefined;
  status: ToolCallStatus;
  call: { readonly seq: number } | null;
  result: ToolResultFacts | undefined;
  answers: readonly (readonly string[])[] | undefined;
  /** Live output deltas of a running call; undefined before the first and once settled. */
  live: LiveEntry | undefined;
  readonly children: CallEntry[];
  /** Node indexes that show this call (top-level calls only). */
  readonly homes: number[];
  block: ToolCallBlock | undefined;
  dirty: boolean;
}

/** The mutable live output of a call; `chunks` is shared with every projected version. */
export interface LiveEntry {
  chunks: string[];
  length: number;
  seq: number;
  truncated: boolean;
}

/** The facts of a call head. */
export interface HeadFacts {
  readonly name: string;
  readonly argsRaw: string;
  readonly turn: number;
  readonly step: number;
  readonly seq: number;
  readonly time: Timestamp | undefined;
}

/** Where a rebuild finds the previous projection of a call, to keep its identity. */
export type ToolPool = (entry: CallEntry) => ToolCallBlock | undefined;

const noSubCalls: readonly ToolCallBlock[] = [];
const noContent: ToolResultFacts['content'] = [];
const interruptedError = create(ToolErrorSchema, {
  name: 'Interrupted',
  code: errorCodes.interrupted,
  message: interruptedMessage,
});

/**
 * Every tool call of the window indexed by call id: top-level calls and code-dispatch
 * sub-calls (one id space: an event that names a sub-call as a top-level call, or the
 * reverse, is ignored, so no id is ever its own ancestor), the running top-level calls in call order, and
 * sub-calls that wait for a parent not yet seen. Changes mark the changed call and its
 * ancestors dirty; `project` rebuilds only dirty blocks (path copying).
 */
export class CallTree {
  readonly calls = new Map<string, CallEntry>();
  readonly subCalls = new Map<string, CallEntry>();
  readonly running = new Map<string, CallEntry>();
  /** Top-level calls with a dirty subtree, to project at the next commit. */
  readonly dirtyTop = new Set<CallEntry>();
  runningChanged = false;
  private readonly waiting = new Map<string, CallEntry[]>();

  /**
   * Records a top-level call head; `overwrite` false keeps an existing head's facts.
   * Undefined (ignored) when the id belongs to a sub-call.
   */
  head(callId: string, facts: HeadFacts, overwrite: boolean): CallEntry | undefined {
    if (this.subCalls.has(callId)) return undefined;
    const existing = this.calls.get(callId);
    if (existing !== undefined) {
      if (overwrite || existing.call === null) {
        setHead(existing, facts);
        this.markDirty(existing);
      }
      return existing;
    }
    const entry = newEntry(callId, true, undefined, facts);
    this.calls.set(callId, entry);
    this.running.set(callId, entry);
    this.runningChanged = true;
    this.adopt(entry);
    this.markDirty(entry);
    return entry;
  }

  /**
   * Settles a top-level call; a call not in the window becomes an orphan (`call === null`).
   * Undefined (ignored) when the id belongs to a sub-call.
   */
  settle(
    callId: string,
    at: HeadFacts,
    result: ToolResultFacts,
  ): { entry: CallEntry; orphan: boolean } | undefined {
    if (this.subCalls.has(callId)) return undefined;
    let entry = this.calls.get(callId);
    const orphan = entry === undefined;
    if (entry === undefined) {
      entry = newEntry(callId, true, undefined, { ...at, name: '', argsRaw: '' });
      entry.call = null;
      entry.startTime = undefined;
      this.calls.set(callId, entry);
      this.adopt(entry);
    }
    this.finish(entry, result, at.time);
    return { entry, orphan };
  }

  /** Starts a sub-call; returns false (event ignored) for a duplicate id or a cycle. */
  startSub(parentCallId: string, callId: string, facts: HeadFacts): boolean {
    if (!this.canAttach(parentCallId, callId)) return false;
    const entry = newEntry(callId, false, parentCallId, facts);
    this.attach(entry);
    return true;
  }

  /** Settles a sub-call; an unknown sub-call is created as an orphan under `parentCallId`. */
  settleSub(parentCallId: string, callId: string, at: HeadFacts, result: ToolResultFacts): void {
    let entry = this.subCalls.get(callId);
    if (entry === undefined) {
      if (!this.canAttach(parentCallId, callId)) return;
      entry = newEntry(callId, false, parentCallId, { ...at, name: '', argsRaw: '' });
      entry.call = null;
      entry.startTime = undefined;
      this.attach(entry);
    }
    this.finish(entry, result, at.time);
  }

  /** Records the person's answers on the call that asked; unknown ids are ignored. */
  answer(callId: string, answers: readonly (readonly string[])[] | undefined): void {
    const entry = this.calls.get(callId) ?? this.subCalls.get(callId);
    if (entry === undefined || entry.answers === answers) return;
    entry.answers = answers;
    this.markDirty(entry);
  }

  /**
   * Attaches a `tool/output` delta to its running call in O(1). Ignored (never thrown) for
   * an unknown id, a call whose head is not in the window, a settled call, and anything
   * after a delta that said the host stopped live output.
   */
  output(callId: string, text: string, truncated: boolean, seq: number): void {
    const entry = this.calls.get(callId) ?? this.subCalls.get(callId);
    if (entry === undefined || entry.status !== 'running' || entry.call === null) return;
    if (entry.live?.truncated === true || (text === '' && !truncated)) return;
    const live = (entry.live ??= { chunks: [], length: 0, seq, truncated: false });
    if (text !== '') {
      live.chunks.push(text);
      live.length += text.length;
    }
    live.seq = seq;
    live.truncated = truncated;
    this.markDirty(entry);
  }

  /** Stops the running calls of `turn` (and their running sub-calls) as interrupted. */
  stopTurn(turn: number, seq: number, time: Timestamp | undefined): void {
    const result: ToolResultFacts = {
      content: noContent,
      isError: true,
      error: interruptedError,
      metaJson: '',
      seq,
    };
    for (const entry of [...this.running.values()]) {
      if (entry.turn !== turn) continue;
      const stack = [entry];
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        if (next.status !== 'running') continue;
        this.finish(next, result, time, 'stopped');
        stack.push(...next.children);
      }
    }
  }

  /** The current block of `entry`, rebuilding dirty blocks bottom-up. */
  project(entry: CallEntry, pool?: ToolPool): ToolCallBlock {
    if (!entry.dirty && entry.block !== undefined) return entry.block;
    const subCalls =
      entry.children.length === 0 ? noSubCalls : entry.children.map((c) => this.project(c, pool));
    const old = pool?.(entry);
    const fresh: ToolCallBlock = {
      callId: entry.callId,
      name: entry.name,
      argsRaw: entry.argsRaw,
      parentCallId: entry.parentCallId,
      turn: entry.turn,
      step: entry.step,
      seq: entry.seq,
      startTime: entry.startTime,
      endTime: entry.endTime,
      status: entry.status,
      call: entry.call,
      result: entry.result,
      answers: entry.answers,
      live: projectLive(entry, old?.live),
      subCalls,
    };
    entry.block = reuseTool(reuseTool(fresh, entry.block), old);
    entry.dirty = false;
    return entry.block;
  }

  private finish(
    entry: CallEntry,
    result: ToolResultFacts,
    time: Timestamp | undefined,
    status: ToolCallStatus = settledStatus(result),
  ): void {
    entry.status = status;
    entry.result = result;
    entry.endTime = time;
    entry.live = undefined;
    if (entry.topLevel && this.running.delete(entry.callId)) this.runningChanged = true;
    this.markDirty(entry);
  }

  /** False when `callId` exists already or would become its own ancestor. */
  private canAttach(parentCallId: string, callId: string): boolean {
    if (callId === parentCallId || this.calls.has(callId) || this.subCalls.has(callId)) {
      return false;
    }
    if (this.calls.has(parentCallId)) return true;
    let node = this.subCalls.get(parentCallId);
    for (; node !== undefined; node = node.parent) {
      if (node.parentCallId === callId) return false;
    }
    return true;
  }

  private attach(entry: CallEntry): void {
    this.subCalls.set(entry.callId, entry);
    const parentId = entry.parentCallId ?? '';
    const parent = this.calls.get(parentId) ?? this.subCalls.get(parentId);
    if (parent === undefined) {
      const list = this.waiting.get(parentId);
      if (list === undefined) this.waiting.set(parentId, [entry]);
      else list.push(entry);
    } else {
      entry.parent = parent;
      entry.turn = parent.turn;
      entry.step = parent.step;
      parent.children.push(entry);
    }
    this.adopt(entry);
    this.markDirty(entry);
  }

  /** Attaches the sub-calls that were waiting for `parent`, giving them its turn and step. */
  private adopt(parent: CallEntry): void {
    const list = this.waiting.get(parent.callId);
    if (list === undefined) return;
    this.waiting.delete(parent.callId);
    for (const child of list) {
      child.parent = parent;
      parent.children.push(child);
      const stack = [child];
      for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
        next.turn = parent.turn;
        next.step = parent.step;
        next.dirty = true;
        stack.push(...next.children);
      }
    }
    this.markDirty(parent);
  }

  private markDirty(start: CallEntry): void {
    let entry: CallEntry | undefined = start;
    let top: CallEntry | undefined;
    while (entry !== undefined) {
      top = entry;
      if (entry.dirty && entry !== start) break;
      entry.dirty = true;
      entry = entry.parent;
    }
    if (top?.topLevel === true) this.dirtyTop.add(top);
  }
}

/**
 * The status a result gives its call: an `interrupted` error is `stopped`, exactly like a
 * call a cancelled turn left open, so one Stop looks the same whichever event recorded it.
 */
function settledStatus(result: ToolResultFacts): ToolCallStatus {
  if (!result.isError) return 'ok';
  return result.error?.code === errorCodes.interrupted ? 'stopped' : 'error';
}

function newEntry(
  callId: string,
  topLevel: boolean,
  parentCallId: string | undefined,
  facts: HeadFacts,
): CallEntry {
  return {
    callId,
    topLevel,
    parentCallId,
    parent: undefined,
    name: facts.name,
    argsRaw: facts.argsRaw,
    turn: facts.turn,
    step: facts.step,
    seq: facts.seq,
    startTime: facts.time,
    endTime: undefined,
    status: 'running',
    call: { seq: facts.seq },
    result: undefined,
    answers: undefined,
    live: undefined,
    children: [],
    homes: [],
    block: undefined,
    dirty: false,
  };
}

function setHead(entry: CallEntry, facts: HeadFacts): void {
  entry.name = facts.name;
  entry.argsRaw = facts.argsRaw;
  entry.turn = facts.turn;
  entry.step = facts.step;
  entry.seq = facts.seq;
  entry.startTime = facts.time;
  entry.call = { seq: facts.seq };
}

/**
 * The immutable view of a call's live output. A rebuild whose previous block saw the same
 * deltas adopts that block's chunk array, so incremental consumers keyed on it carry on.
 */
function projectLive(entry: CallEntry, old: LiveOutput | undefined): LiveOutput | undefined {
  const live = entry.live;
  if (live === undefined) return undefined;
  const count = live.chunks.length;
  if (
    old !== undefined &&
    old.chunks !== live.chunks &&
    old.count === count &&
    old.chunks.length === count &&
    old.seq === live.seq &&
    old.length === live.length
  ) {
    live.chunks = old.chunks as string[];
  }
  const { chunks, length, seq, truncated } = live;
  return { chunks, count, length, seq, truncated };
}
