import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { Usage } from '@dsh/gen/content';
import {
  TurnEndReason,
  type AssistantChunk,
  type QuestionResolved,
  type SessionEvent,
} from '@dsh/gen/events';
import { CallTree, type CallEntry, type ToolPool } from './call-tree.js';
import { NodeVector } from './node-vector.js';
import {
  PartialAccumulator,
  assistantBlock,
  hasContent,
  type BlockOrigin,
} from './partial-accumulator.js';
import { materializeNode, type NodeSource } from './node-source.js';
import { reuseItems, reuseMap } from './reuse.js';
import { VectorSnapshot } from './vector-snapshot.js';
import type {
  AssistantBlock,
  ConversationNode,
  ConversationSnapshot,
  OpenTurn,
  PendingItem,
  QueueChange,
  ToolCallBlock,
} from './types.js';

/** The previous state a rebuild draws on to keep the identity of unchanged objects. */
export interface FoldPool {
  readonly tool: ToolPool;
  readonly node: (seq: number) => ConversationNode | undefined;
  readonly snapshot: ConversationSnapshot;
}

/**
 * The assembler state of one contiguous window: it folds events in seq order and, at
 * `commit`, projects what changed into a new immutable snapshot. Folding one event does
 * a bounded amount of work (no scan of the window); `commit` touches only dirty calls,
 * dirty nodes and new nodes.
 */
export class ConversationFold {
  readonly events: SessionEvent[] = [];
  private readonly tree = new CallTree();
  private readonly sources: NodeSource[] = [];
  private readonly dirtyNodes = new Set<number>();
  private vector = NodeVector.empty<ConversationNode>();
  private readonly partial = new PartialAccumulator();
  private readonly pending = new Map<string, PendingItem>();
  private readonly resolved = new Map<string, QuestionResolved>();
  /** The call that asked each question request, for its answers. */
  private readonly questionCalls = new Map<string, string>();
  private openTurn: OpenTurn | undefined;
  private readonly queueLog: QueueChange[] = [];
  private pendingChanged = true;
  private resolvedChanged = true;
  private queueChanged = true;
  private last: ConversationSnapshot | undefined;

  /** Seq of the first event, or of the window's end when empty. */
  get firstSeq(): number {
    return this.events[0]?.seq ?? 0;
  }

  /** One past the last event's seq. */
  get endSeq(): number {
    return this.firstSeq + this.events.length;
  }

  /** Folds the next event (its seq must be `endSeq`, or any seq when the window is empty). */
  add(event: SessionEvent): void {
    this.events.push(event);
    // Chunks are most events: their short path is optimised early.
    const payload = event.payload;
    if (payload.case === 'assistantChunk') this.chunk(event.seq, event.time, payload.value);
    else this.fold(event);
  }

  /** What a rebuild of this window needs to keep identities. */
  pool(): FoldPool {
    const bySeq = new Map<number, ConversationNode>();
    for (const node of this.vector.toArray()) bySeq.set(node.seq, node);
    const tree = this.tree;
    return {
      tool: (entry) => (entry.topLevel ? tree.calls : tree.subCalls).get(entry.callId)?.block,
      node: (seq) => bySeq.get(seq),
      snapshot: this.last ?? this.commit(),
    };
  }

  /** Projects the changes since the last commit into a new snapshot. */
  commit(pool?: FoldPool): ConversationSnapshot {
    const tree = this.tree;
    const rebuilt = pool !== undefined;
    let runningChanged = tree.runningChanged || rebuilt;
    if (tree.dirtyTop.size > 0) {
      for (const entry of tree.dirtyTop) {
        const before = entry.block;
        if (tree.project(entry, pool?.tool) === before) continue;
        for (const home of entry.homes) this.dirtyNodes.add(home);
        if (tree.running.has(entry.callId)) runningChanged = true;
      }
      tree.dirtyTop.clear();
    }
    tree.runningChanged = false;
    if (this.dirtyNodes.size > 0 || this.sources.length > this.vector.length) {
      this.updateVector(pool);
    }

    const last = pool?.snapshot ?? this.last;
    const snapshot = new VectorSnapshot(
      this.firstSeq,
      this.endSeq,
      this.partial.project(pool?.snapshot.partial),
      runningChanged || last === undefined ? this.runningCalls(last) : last.runningCalls,
      this.pendingChanged || rebuilt || last === undefined
        ? reuseItems([...this.pending.values()], last?.pending)
        : last.pending,
      this.resolvedChanged || rebuilt || last === undefined
        ? reuseMap(this.resolved, last?.resolvedQuestions)
        : last.resolvedQuestions,
      reuseOpenTurn(this.openTurn, last?.openTurn),
      this.queueChanged || rebuilt || last === undefined ? [...this.queueLog] : last.queueLog,
      this.vector,
    );
    this.pendingChanged = false;
    this.resolvedChanged = false;
    this.queueChanged = false;
    this.last = snapshot;
    return snapshot;
  }

  /** Re-materializes dirty nodes and appends new ones into a new vector version. */
  private updateVector(pool: FoldPool | undefined): void {
    const old = this.vector;
    const editor = old.edit();
    for (const index of this.dirtyNodes) {
      if (index >= old.length) continue;
      const node = this.materialize(index, pool);
      if (node !== old.get(index)) editor.set(index, node);
    }
    this.dirtyNodes.clear();
    for (let index = old.length; index < this.sources.length; index++) {
      editor.push(this.materialize(index, pool));
    }
    this.vector = editor.done();
  }

  /** The running top-level calls in call order; `last`'s array when the same. */
  private runningCalls(last: ConversationSnapshot | undefined): readonly ToolCallBlock[] {
    const fresh: ToolCallBlock[] = [];
    for (const entry of this.tree.running.values()) fresh.push(this.tree.project(entry));
    return reuseItems(fresh, last?.runningCalls);
  }

  private fold(event: SessionEvent): void {
    const { seq, time, payload } = event;
    switch (payload.case) {
      case 'userMessage': {
        const { content, source } = payload.value;
        return this.pushStatic({ kind: 'user', seq, time, content, source });
      }
      case 'steeringMessage': {
        const { turn, content, source } = payload.value;
        return this.pushStatic({ kind: 'steering', seq, time, turn, content, source });
      }
      case 'contextMessage': {
        const { content, source, envelope, metaJson } = payload.value;
        return this.pushStatic({ kind: 'context', seq, time, content, source, envelope, metaJson });
      }
      case 'assistantChunk':
        return this.chunk(seq, time, payload.value);
      case 'assistantMessage': {
        const { turn, step, content, usage } = payload.value;
        const at = { turn, step, seq, time };
        const state = this.partial.state;
        const streamed = state !== undefined && state.turn === turn && state.step === step;
        const durations = streamed ? this.partial.reasoningDurations() : undefined;
        const blocks = content.map((block, index) => {
          const shown = assistantBlock(block, at);
          const durationMs = durations?.get(index);
          return shown.kind === 'reasoning' && durationMs !== undefined
            ? { ...shown, durationMs }
            : shown;
        });
        this.addAssistant(at, blocks.filter(identifiable), usage, false);
        if (streamed) this.partial.clear();
        return;
      }
      case 'toolCall': {
        const { turn, step, callId, name, arguments: argsRaw } = payload.value;
        const entry = this.tree.head(callId, { name, argsRaw, turn, step, seq, time }, true);
        if (entry !== undefined && entry.homes.length === 0) this.pushTool(entry, seq, time);
        return;
      }
      case 'toolResult': {
        const { turn, step, callId, content, isError, error, metaJson } = payload.value;
        const at = { name: '', argsRaw: '', turn, step, seq, time };
        const result = { content, isError, error, metaJson, seq };
        const settled = this.tree.settle(callId, at, result);
        if (settled?.orphan === true) this.pushTool(settled.entry, seq, time);
        return;
      }
      case 'codeDispatchStart': {
        const { parentCallId, callId, name, arguments: argsRaw } = payload.value;
        this.tree.startSub(parentCallId, callId, { name, argsRaw, turn: 0, step: 0, seq, time });
        return;
      }
      case 'codeDispatch': {
        const { parentCallId, callId, content, isError, error } = payload.value;
        const at = { name: '', argsRaw: '', turn: 0, step: 0, seq, time };
        const result = { content, isError, error, metaJson: '', seq };
        this.tree.settleSub(parentCallId, callId, at, result);
        return;
      }
      case 'toolOutput': {
        const { callId, text, truncated } = payload.value;
        this.tree.output(callId, text, truncated, seq);
        return;
      }
      case 'approvalRequested': {
        const { approvalId, callId, toolName, reason } = payload.value;
        const item = { kind: 'approval', seq, approvalId, callId, toolName, reason } as const;
        return this.setPending(`a:${approvalId}`, item);
      }
      case 'approvalResolved':
        return this.setPending(`a:${payload.value.approvalId}`, undefined);
      case 'questionRequested': {
        const { questionId, callId, questions } = payload.value;
        const item = { kind: 'question', seq, questionId, callId, questions } as const;
        this.questionCalls.set(questionId, callId);
        return this.setPending(`q:${questionId}`, item);
      }
      case 'questionResolved': {
        const { questionId, answers, cancelled } = payload.value;
        this.resolved.set(questionId, payload.value);
        this.resolvedChanged = true;
        const callId = this.questionCalls.get(questionId);
        if (callId !== undefined) {
          this.tree.answer(callId, cancelled ? undefined : answers.map((a) => a.values));
        }
        return this.setPending(`q:${questionId}`, undefined);
      }
      case 'turnStart':
        this.openTurn = { turn: payload.value.turn, seq, time };
        return;
      case 'turnEnd':
        return this.endTurn(payload.value.turn, payload.value.reason, seq, time);
      case 'agentError': {
        const { message, code } = payload.value;
        return this.pushStatic({ kind: 'agent-error', seq, time, message, code });
      }
      case 'contextCompaction': {
        const { summary, replacedFromSeq, keptFromSeq, tokensBefore, tokensAfter } = payload.value;
        const { contextBudget, reason, instruction, model } = payload.value;
        return this.pushStatic({
          kind: 'compaction',
          seq,
          time,
          summary,
          replacedFromSeq,
          keptFromSeq,
          tokensBefore,
          tokensAfter,
          contextBudget,
          reason,
          instruction,
          model,
        });
      }
      case 'inputQueued': {
        const { queueId, content, steer } = payload.value;
        this.queueLog.push({ kind: 'queued', seq, queueId, content, steer });
        this.queueChanged = true;
        return;
      }
      case 'inputUnqueued': {
        const { queueId, reason } = payload.value;
        this.queueLog.push({ kind: 'unqueued', seq, queueId, reason });
        this.queueChanged = true;
        return;
      }
      case 'sessionRenamed':
      case 'sessionArchived':
        // Facts about the session, not the conversation: the session list shows them.
        return;
      case 'extension': {
        const { type, dataJson } = payload.value;
        return this.pushStatic({ kind: 'unknown', seq, time, type, dataJson });
      }
      case undefined:
        return this.pushStatic({ kind: 'unknown', seq, time, type: '', dataJson: '{}' });
      default: {
        const unhandled: never = payload;
        return unhandled;
      }
    }
  }

  private chunk(seq: number, time: Timestamp | undefined, value: AssistantChunk): void {
    const { turn, step, chunk } = value;
    if (chunk !== undefined) this.partial.chunk({ turn, step, seq, time }, chunk.chunk);
  }

  /** Freezes the turn's partial, stops its open calls when cancelled, closes pending items. */
  private endTurn(turn: number, reason: TurnEndReason, seq: number, time?: Timestamp): void {
    if (this.openTurn?.turn === turn) this.openTurn = undefined;
    const state = this.partial.state;
    if (state !== undefined && state.turn === turn) {
      const blocks = this.partial.blocks();
      if (hasContent(blocks)) this.addAssistant(state, blocks, undefined, true);
      this.partial.clear();
    }
    if (reason === TurnEndReason.CANCELLED) this.tree.stopTurn(turn, seq, time);
    if (this.pending.size > 0) {
      this.pending.clear();
      this.pendingChanged = true;
    }
    this.pushStatic({ kind: 'turn-end', seq, time, turn, reason });
  }

  private addAssistant(
    at: BlockOrigin,
    blocks: AssistantBlock[],
    usage: Usage | undefined,
    interrupted: boolean,
  ): void {
    const index = this.sources.length;
    const tools = blocks.map((block) => {
      if (block.kind !== 'tool-call') return undefined;
      const { name, argsRaw, turn, step, seq, startTime } = block.tool;
      const head = { name, argsRaw, turn, step, seq, time: startTime };
      const entry = this.tree.head(block.callId, head, false);
      entry?.homes.push(index);
      return entry;
    });
    const { turn, step, seq, time } = at;
    const base = { kind: 'assistant', seq, time, turn, step, usage, interrupted } as const;
    this.sources.push({ kind: 'assistant', node: undefined, base, blocks, tools });
  }

  private pushTool(entry: CallEntry, seq: number, time: Timestamp | undefined): void {
    entry.homes.push(this.sources.length);
    this.sources.push({ kind: 'tool', node: undefined, seq, time, entry });
  }

  private pushStatic(node: ConversationNode): void {
    this.sources.push({ kind: 'static', node, pooled: false });
  }

  private setPending(key: string, item: PendingItem | undefined): void {
    if (item !== undefined) this.pending.set(key, item);
    else if (!this.pending.delete(key)) return;
    this.pendingChanged = true;
  }

  private materialize(index: number, pool: FoldPool | undefined): ConversationNode {
    const source = this.sources[index];
    if (source === undefined) throw new Error(`no node source at ${index}`);
    return materializeNode(source, this.tree, pool?.node);
  }
}

/** `previous` when it names the same turn start (a rebuilt window keeps the object). */
function reuseOpenTurn(
  fresh: OpenTurn | undefined,
  previous: OpenTurn | undefined,
): OpenTurn | undefined {
  if (fresh === undefined || previous === undefined) return fresh;
  return fresh.turn === previous.turn && fresh.seq === previous.seq ? previous : fresh;
}

/** False for a tool-call block with neither a call id nor a name: nothing to show or match. */
function identifiable(block: AssistantBlock): boolean {
  return block.kind !== 'tool-call' || block.callId !== '' || block.tool.name !== '';
}
