import { create } from '@bufbuild/protobuf';
import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { ContentBlockSchema, type ContentBlock } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import type { EventPayload } from '@dsh/journal';
import { contentBlocks, contentText, textBlock } from '../content-blocks.js';
import { importPayloads as p, usageOf } from '../import-payloads.js';
import { translateToolCall } from './translate-tool-call.js';
import { translateToolResult, type OpenCall } from './translate-tool-result.js';
import { isRecord, lineTime, stringOf, type JsonRecord } from '../json-fields.js';
import type { TranscriptLine } from './transcript-line.js';

/** One block of the assistant message being merged from several transcript lines. */
type PendingBlock =
  | { kind: 'text'; text: string }
  | { kind: 'reasoning'; text: string; signature: string }
  | { kind: 'tool'; id: string; name: string; args: string }
  | { kind: 'other'; data: JsonRecord };

/** The conversion state of one transcript: JSON, so an import can continue where it stopped. */
export interface ConverterState {
  turn: number;
  turnOpen: boolean;
  step: number;
  openCalls: Record<string, OpenCall>;
  pending: {
    id: string;
    blocks: PendingBlock[];
    model: string;
    usage: JsonRecord | null;
    stop: string;
    /** Time (ms) of the message's latest line that had one. */
    time?: number;
  } | null;
  /** After the last assistant message: 'end' (it ended the turn), 'text' (no tool calls), 'none'. */
  idle: 'none' | 'text' | 'end';
  /** Time (ms) of the last event written: the time of an event whose line has none. */
  time?: number;
}

/**
 * An event payload and its time in ms: the transcript time of the line it comes from; a
 * synthetic event (turn/start, turn/end, an interrupted result) takes the time of the line
 * that caused it or of the previous event. `undefined` until the transcript shows a time.
 */
export interface TimedPayload {
  readonly payload: EventPayload;
  readonly time: number | undefined;
}

/** Turns transcript lines into dsh event payloads, one line at a time. */
export interface TranscriptConverter {
  /** The events a line adds (an assistant message waits for its last line or `flush`). */
  push(line: TranscriptLine): TimedPayload[];
  /**
   * Writes the message being merged and, when the transcript shows the turn is over,
   * its `turn/end`. `final` (a one-time import) also ends a turn whose last message
   * called no tools.
   */
  flush(final: boolean): TimedPayload[];
  /** The state to save; `createTranscriptConverter(state)` continues from it. */
  state(): ConverterState;
}

const interruptMarker = /^\[Request interrupted by user[^\]]*\]$/;
const endReasons: ReadonlySet<string> = new Set([
  'end_turn',
  'stop_sequence',
  'max_tokens',
  'refusal',
]);

/** The state of a transcript nothing has been read from. */
export function initialConverterState(): ConverterState {
  return { turn: 0, turnOpen: false, step: 0, openCalls: {}, pending: null, idle: 'none' };
}

/**
 * Creates a converter that maps Claude Code transcript lines to dsh events with the
 * agent runtime's contracts: a `user/message` and `turn/start` per prompt, one
 * `assistant/message` per API message (its lines merged by `message.id`) followed by its
 * `tool/call`s, a `tool/result` per `tool_result`, and `turn/end` (cancelled on an
 * interruption, with open calls settled as interrupted). Lines it does not map become
 * `claude-code/<type>` extension events, never dropped. Every event carries its
 * transcript time (`TimedPayload`).
 */
export function createTranscriptConverter(saved?: ConverterState): TranscriptConverter {
  const s: ConverterState = structuredClone(saved ?? initialConverterState());
  const at = () => ({ turn: s.turn, step: s.step });
  /** Time of the line being pushed; `undefined` in `flush` or for a line without one. */
  let now: number | undefined;
  const emit = (out: TimedPayload[], payload: EventPayload, time = now ?? s.time): void => {
    if (time !== undefined) s.time = time;
    out.push({ payload, time });
  };

  const emitPending = (out: TimedPayload[]): void => {
    const pending = s.pending;
    if (pending === null) return;
    s.pending = null;
    const time = pending.time ?? now ?? s.time;
    const content: ContentBlock[] = [];
    const calls: { id: string; name: string; args: string }[] = [];
    for (const block of pending.blocks) {
      if (block.kind === 'text') content.push(textBlock(block.text));
      else if (block.kind === 'reasoning')
        content.push(reasoningBlock(block.text, block.signature));
      else if (block.kind === 'tool') {
        content.push(toolCallBlock(block.id, block.name, block.args));
        calls.push(block);
      }
    }
    if (content.length > 0) {
      const usage = usageOf(pending.usage ?? undefined);
      const finish = pending.stop || (calls.length > 0 ? 'tool_use' : '');
      emit(out, p.assistantMessage(at(), content, usage, pending.model, finish), time);
      for (const call of calls) {
        emit(out, p.toolCall(at(), call.id, call.name, call.args), time);
        s.openCalls[call.id] = { name: call.name, args: call.args, ...at() };
      }
      s.step += 1;
      s.idle = calls.length > 0 ? 'none' : endReasons.has(pending.stop) ? 'end' : 'text';
    }
    for (const block of pending.blocks) {
      if (block.kind === 'other') emit(out, p.extension('block', block.data), time);
    }
  };

  const openTurn = (out: TimedPayload[]): void => {
    if (s.turnOpen) return;
    s.turn += 1;
    s.step = 0;
    s.turnOpen = true;
    emit(out, p.turnStart(s.turn));
  };

  const endTurn = (out: TimedPayload[], cancelled: boolean): void => {
    emitPending(out);
    const open = Object.entries(s.openCalls);
    for (const [callId, call] of open) emit(out, interruptedResult(callId, call));
    s.openCalls = {};
    s.idle = 'none';
    if (!s.turnOpen) return;
    s.turnOpen = false;
    const reason = cancelled || open.length > 0 ? TurnEndReason.CANCELLED : TurnEndReason.COMPLETED;
    emit(out, p.turnEnd(s.turn, reason));
  };

  const assistant = (line: JsonRecord, message: JsonRecord, out: TimedPayload[]): void => {
    const id = stringOf(message, 'id') ?? stringOf(line, 'uuid') ?? '';
    if (s.pending !== null && s.pending.id !== id) emitPending(out);
    if (line.isApiErrorMessage === true) {
      emitPending(out);
      emit(out, p.agentError(contentText(contentBlocks(message.content)), 'claude_code_api_error'));
      return;
    }
    openTurn(out);
    s.idle = 'none';
    const pending = (s.pending ??= { id, blocks: [], model: '', usage: null, stop: '' });
    pending.time = now ?? pending.time;
    pending.model = stringOf(message, 'model') ?? pending.model;
    if (isRecord(message.usage)) pending.usage = message.usage;
    pending.stop = stringOf(message, 'stop_reason') ?? pending.stop;
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content;
    for (const block of Array.isArray(blocks) ? blocks : [])
      pending.blocks.push(pendingBlock(block));
  };

  const user = (line: JsonRecord, message: JsonRecord, out: TimedPayload[]): void => {
    const raw = Array.isArray(message.content) ? message.content : undefined;
    const results = (raw ?? []).filter(
      (b: unknown): b is JsonRecord => isRecord(b) && b.type === 'tool_result',
    );
    const rest =
      raw === undefined
        ? message.content
        : raw.filter((b: unknown) => !(isRecord(b) && b.type === 'tool_result'));
    const content = contentBlocks(rest);
    const text = contentText(content).trim();
    if (results.length > 0) {
      emitPending(out);
      s.idle = 'none';
      for (const result of results) {
        const callId = stringOf(result, 'tool_use_id') ?? '';
        const call = Object.hasOwn(s.openCalls, callId) ? s.openCalls[callId] : undefined;
        delete s.openCalls[callId];
        const where = call ?? { turn: s.turn, step: Math.max(s.step - 1, 0) };
        const facts = results.length === 1 ? line.toolUseResult : undefined;
        emit(out, translateToolResult(result, call, facts, { turn: where.turn, step: where.step }));
      }
      if (interruptMarker.test(text)) endTurn(out, true);
      else if (content.length > 0 && text !== '') emit(out, p.steeringMessage(s.turn, content));
      return;
    }
    if (interruptMarker.test(text)) return endTurn(out, true);
    if (line.isCompactSummary === true)
      return void emit(out, p.contextMessage(content, 'compact-summary'));
    if (line.isMeta === true) return void emit(out, p.contextMessage(content, 'claude-code/meta'));
    endTurn(out, false);
    emit(out, p.userMessage(content));
    openTurn(out);
  };

  return {
    push(line) {
      const out: TimedPayload[] = [];
      now = lineTime(line.fields);
      const message = isRecord(line.fields.message) ? line.fields.message : undefined;
      if (line.type === 'assistant' && message !== undefined) assistant(line.fields, message, out);
      else if (line.type === 'user' && message !== undefined) user(line.fields, message, out);
      else {
        emitPending(out);
        const { type: _type, ...data } = line.fields;
        emit(out, p.extension(line.type, data));
      }
      return out;
    },
    flush(final) {
      const out: TimedPayload[] = [];
      now = undefined;
      emitPending(out);
      const done = s.idle === 'end' || (final && s.idle === 'text');
      if (s.turnOpen && done && Object.keys(s.openCalls).length === 0) endTurn(out, false);
      return out;
    },
    state: () => structuredClone(s),
  };
}

function pendingBlock(block: unknown): PendingBlock {
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
  if (block.type === 'tool_use' && typeof block.id === 'string' && typeof block.name === 'string') {
    const call = translateToolCall(block.name, block.input);
    return { kind: 'tool', id: block.id, name: call.name, args: call.arguments };
  }
  return { kind: 'other', data: block };
}

function reasoningBlock(text: string, signature: string): ContentBlock {
  return create(ContentBlockSchema, { block: { case: 'reasoning', value: { text, signature } } });
}

function toolCallBlock(id: string, name: string, args: string): ContentBlock {
  return create(ContentBlockSchema, {
    block: { case: 'toolCall', value: { id, name, arguments: args } },
  });
}

function interruptedResult(callId: string, call: OpenCall): EventPayload {
  return {
    case: 'toolResult',
    value: {
      $typeName: 'dsh.session.v1.ToolResult',
      turn: call.turn,
      step: call.step,
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
