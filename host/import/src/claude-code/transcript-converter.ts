import type { ContentBlock } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import type { EventPayload } from '@dsh/journal';
import { contentBlocks, contentText, textBlock } from '../content-blocks.js';
import { importPayloads as p, interruptedResult } from '../import-payloads.js';
import { isRecord, lineTime, stringOf, type JsonRecord } from '../json-fields.js';
import { contextEnvelopes, lineMeaning } from './line-meaning.js';
import {
  contentOf,
  maxCounts,
  pendingBlock,
  previewChunks,
  tokenCounts,
  usageDelta,
  type PendingMessage,
  type TokenCounts,
} from './pending-message.js';
import { progressStep, type ProgressSeen } from './shell-progress.js';
import { translateToolResult, type OpenCall, type ResultContext } from './translate-tool-result.js';
import type { TranscriptLine } from './transcript-line.js';
import { addNote, emptyNotes, notesMeta, notesText, type TurnNotes } from './turn-notes.js';
import { classifyUserText } from './user-text.js';

/** The conversion state of one transcript: JSON, so an import can continue where it stopped. */
export interface ConverterState {
  turn: number;
  turnOpen: boolean;
  step: number;
  openCalls: Record<string, OpenCall>;
  /** The assistant message being merged from its lines. */
  pending: PendingMessage | null;
  /**
   * The last assistant message written: its API id and the usage counted for it, so
   * lines of the same message after tool results continue it without counting twice.
   */
  written: { id: string; counted: TokenCounts | null } | null;
  /** 'text' when the last assistant message called no tools (the turn may be over), else 'none'. */
  idle: 'none' | 'text';
  /** Time (ms) of the last event written: the time of an event whose line has none. */
  time?: number;
  /** Bookkeeping of the current turn, written as one context row when it ends. */
  notes: TurnNotes;
  /** Background shell jobs by id: their command, for the cards that read or stop them. */
  jobs: Record<string, string>;
  /** Sub-agents by agent id: the Task call that started each. */
  agents: Record<string, string>;
  /** A title the transcript gave the session (`/rename`, Claude Code's own). */
  title: string;
  /** The first `summary` line's text: a title when the session has no prompt. */
  summary?: string;
  /** Live output shown so far of shell calls still running, by call id. */
  progress?: Record<string, ProgressSeen>;
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

/**
 * How a pass over the transcript ends: `pass` (more lines may follow at once), `idle`
 * (the transcript paused: a message still being written is previewed as chunks) or
 * `final` (a one-time import's end of file, or a long pause: the last message is written
 * and a turn whose last message called no tools ends).
 */
export type FlushMode = 'pass' | 'idle' | 'final';

/** Turns transcript lines into dsh event payloads, one line at a time. */
export interface TranscriptConverter {
  /** The events a line adds (an assistant message waits for the line that follows it). */
  push(line: TranscriptLine): TimedPayload[];
  /** The events the end of a pass adds (see `FlushMode`). */
  flush(mode: FlushMode): TimedPayload[];
  /** The state to save; `createTranscriptConverter(state)` continues from it. */
  state(): ConverterState;
}

/** What the converter needs to know about sessions beyond its own transcript. */
export interface ConverterLinks {
  /** The dsh session a sub-agent ran as: by its agent id, or by the prompt of its Task call. */
  childSession(agent: { agentId?: string; prompt?: string }): string | undefined;
}

const maxRemembered = 256;

/** The state of a transcript nothing has been read from. */
export function initialConverterState(): ConverterState {
  return {
    turn: 0,
    turnOpen: false,
    step: 0,
    openCalls: {},
    pending: null,
    written: null,
    idle: 'none',
    notes: emptyNotes(),
    jobs: {},
    agents: {},
    title: '',
  };
}

/**
 * Creates a converter that maps Claude Code transcript lines to dsh events with the
 * agent runtime's contracts: a `user/message` and `turn/start` per prompt, one
 * `assistant/message` per API message (its lines merged by `message.id`) followed by its
 * `tool/call`s, a `tool/result` per `tool_result`, and `turn/end` (cancelled on an
 * interruption, with open calls settled as interrupted). Markup becomes readable text,
 * bookkeeping one context row per turn, and undocumented line types `claude-code/<type>`
 * extension events. Every event carries its transcript time (`TimedPayload`).
 */
export function createTranscriptConverter(
  saved?: ConverterState,
  links?: ConverterLinks,
): TranscriptConverter {
  const s: ConverterState = { ...initialConverterState(), ...structuredClone(saved ?? {}) };
  const at = () => ({ turn: s.turn, step: s.step });
  /** Time of the line being pushed; `undefined` in `flush` or for a line without one. */
  let now: number | undefined;
  const emit = (out: TimedPayload[], payload: EventPayload, time = now ?? s.time): void => {
    if (time !== undefined) s.time = time;
    out.push({ payload, time });
  };
  const context = (text: string, envelope: string, meta?: JsonRecord): EventPayload =>
    p.contextMessage([textBlock(text)], envelope, meta === undefined ? '' : JSON.stringify(meta));

  const emitPending = (out: TimedPayload[]): void => {
    const pending = s.pending;
    if (pending === null) return;
    s.pending = null;
    const time = pending.time ?? now ?? s.time;
    const content: ContentBlock[] = [];
    const calls: { id: string; name: string; args: string }[] = [];
    for (const block of pending.blocks) {
      const shown = contentOf(block);
      if (shown !== undefined) content.push(shown);
      if (block.kind === 'tool') calls.push(block);
    }
    const continued = s.written?.id === pending.id ? s.written.counted : null;
    if (content.length > 0) {
      const usage = usageDelta(pending.usage, continued);
      const finish = pending.stop || (calls.length > 0 ? 'tool_use' : '');
      emit(out, p.assistantMessage(at(), content, usage, pending.model, finish), time);
      for (const call of calls) {
        emit(out, p.toolCall(at(), call.id, call.name, call.args), time);
        s.openCalls[call.id] = { name: call.name, args: call.args, ...at() };
      }
      s.step += 1;
      s.idle = calls.length > 0 ? 'none' : 'text';
      s.written = { id: pending.id, counted: maxCounts(continued, pending.usage) };
    }
    for (const block of pending.blocks) {
      if (block.kind === 'other') emit(out, p.extension('block', block.data), time);
    }
  };

  /**
   * A running shell call's `bash_progress` becomes `tool/output`, as the agent writes it
   * live. The message that calls it is written first when it is still being merged (a
   * later line of the same message continues it); a settled call shows nothing more.
   */
  const shellProgress = (callId: string, full: string, out: TimedPayload[]): void => {
    if (s.pending?.blocks.some((b) => b.kind === 'tool' && b.id === callId) === true) {
      emitPending(out);
    }
    const progress = (s.progress ??= {});
    for (const id of Object.keys(progress)) {
      if (!Object.hasOwn(s.openCalls, id)) delete progress[id];
    }
    if (!Object.hasOwn(s.openCalls, callId)) return;
    const step = progressStep(progress[callId], full);
    progress[callId] = step.next;
    if (step.text !== '' || step.truncated) {
      emit(out, p.toolOutput(callId, step.text, step.truncated));
    }
  };

  const openTurn = (out: TimedPayload[]): void => {
    if (s.turnOpen) return;
    s.turn += 1;
    s.step = 0;
    s.turnOpen = true;
    emit(out, p.turnStart(s.turn));
  };

  /**
   * Ends the open turn. A turn that simply ended (the next prompt came, the transcript
   * went quiet) ends at its last event's time; an interruption or Claude Code's own
   * turn-end line at that line's time.
   */
  const endTurn = (
    out: TimedPayload[],
    cancelled: boolean,
    time = cancelled ? now : undefined,
  ): void => {
    emitPending(out);
    const when = time ?? s.time;
    const open = Object.entries(s.openCalls);
    for (const [callId, call] of open) emit(out, interruptedResult(call, callId), now ?? when);
    s.openCalls = {};
    s.idle = 'none';
    if (!s.turnOpen) return;
    if (s.notes.lines > 0) {
      emit(out, context(notesText(s.notes), contextEnvelopes.notes, notesMeta(s.notes)), when);
      s.notes = emptyNotes();
    }
    s.turnOpen = false;
    const reason = cancelled || open.length > 0 ? TurnEndReason.CANCELLED : TurnEndReason.COMPLETED;
    emit(out, p.turnEnd(s.turn, reason), when);
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
    const pending = (s.pending ??= {
      id,
      blocks: [],
      model: '',
      usage: null,
      stop: '',
      previewed: 0,
    });
    pending.time = now ?? pending.time;
    pending.model = stringOf(message, 'model') ?? pending.model;
    pending.usage = maxCounts(pending.usage, tokenCounts(message.usage));
    pending.stop = stringOf(message, 'stop_reason') ?? pending.stop;
    const blocks =
      typeof message.content === 'string'
        ? [{ type: 'text', text: message.content }]
        : message.content;
    for (const block of Array.isArray(blocks) ? blocks : []) {
      const next = pendingBlock(block);
      const repeated =
        next.kind === 'tool' &&
        (Object.hasOwn(s.openCalls, next.id) ||
          pending.blocks.some((b) => b.kind === 'tool' && b.id === next.id));
      if (!repeated) pending.blocks.push(next);
    }
  };

  const resultContext = (): ResultContext => ({
    jobs: s.jobs,
    childSession: (agent) => links?.childSession(agent),
    remember: (kind, key, value) => remember(kind === 'job' ? s.jobs : s.agents, key, value),
  });

  const results = (line: JsonRecord, blocks: JsonRecord[], out: TimedPayload[]): void => {
    emitPending(out);
    s.idle = 'none';
    for (const result of blocks) {
      const callId = stringOf(result, 'tool_use_id') ?? '';
      const call = Object.hasOwn(s.openCalls, callId) ? s.openCalls[callId] : undefined;
      delete s.openCalls[callId];
      const where = call ?? { turn: s.turn, step: Math.max(s.step - 1, 0) };
      const facts = blocks.length === 1 ? line.toolUseResult : undefined;
      emit(
        out,
        translateToolResult(
          result,
          call,
          facts,
          where,
          callId === '' ? undefined : resultContext(),
        ),
      );
    }
  };

  const user = (line: JsonRecord, message: JsonRecord, out: TimedPayload[]): void => {
    const raw = Array.isArray(message.content) ? message.content : undefined;
    const resultBlocks = (raw ?? []).filter(
      (b: unknown): b is JsonRecord => isRecord(b) && b.type === 'tool_result',
    );
    const rest =
      raw === undefined
        ? message.content
        : raw.filter((b: unknown) => !(isRecord(b) && b.type === 'tool_result'));
    const content = contentBlocks(rest);
    const text = contentText(content);
    const meaning = classifyUserText(text);
    if (resultBlocks.length > 0) {
      results(line, resultBlocks, out);
      if (meaning.kind === 'interrupt') endTurn(out, true);
      else if (text.trim() !== '' || content.length > 0)
        emit(out, p.steeringMessage(s.turn, content));
      return;
    }
    if (meaning.kind === 'interrupt') return endTurn(out, true);
    if (line.isCompactSummary === true) {
      return void emit(out, p.contextMessage(content, contextEnvelopes.compactSummary, ''));
    }
    if (line.isMeta === true) {
      const hook = meaning.kind === 'prompt' && meaning.reminders.some((r) => /\bhook\b/i.test(r));
      const body =
        meaning.kind === 'prompt' && meaning.reminders.length > 0
          ? [...meaning.reminders, meaning.text].filter((t) => t !== '').join('\n\n')
          : text;
      const blocks = content.some((b) => b.block.case !== 'text')
        ? [textBlock(body), ...content.filter((b) => b.block.case !== 'text')]
        : [textBlock(body)];
      const envelope = hook ? contextEnvelopes.hookContext : contextEnvelopes.meta;
      return void emit(out, p.contextMessage(blocks, envelope, ''));
    }
    const images = content.filter((b) => b.block.case !== 'text');
    switch (meaning.kind) {
      case 'command-output':
        return void emit(out, context(meaning.text, contextEnvelopes.command));
      case 'task-notification':
        return void emit(
          out,
          context(meaning.text, contextEnvelopes.taskNotification, { status: meaning.status }),
        );
      case 'command':
      case 'shell-input':
      case 'prompt': {
        endTurn(out, false);
        const typed = meaning.text.trim();
        const blocks = typed === '' ? images : [textBlock(typed), ...images];
        if (blocks.length > 0) emit(out, p.userMessage(blocks));
        if (meaning.kind === 'prompt' && meaning.reminders.length > 0) {
          emit(out, context(meaning.reminders.join('\n\n'), contextEnvelopes.meta));
        }
        if (blocks.length > 0) openTurn(out);
        return;
      }
      default: {
        const unknown: never = meaning;
        throw new Error(`unhandled user text ${JSON.stringify(unknown)}`);
      }
    }
  };

  /** A line that is neither a user nor an assistant message. */
  const other = (line: TranscriptLine, out: TimedPayload[]): void => {
    const meaning = lineMeaning(line.type, line.fields);
    switch (meaning.kind) {
      case 'note':
        return addNote(s.notes, meaning.note);
      case 'turn-end':
        addNote(s.notes, meaning.note);
        emitPending(out);
        if (Object.keys(s.openCalls).length === 0) endTurn(out, false, now);
        return;
      case 'context':
        emitPending(out);
        return void emit(out, context(meaning.text, meaning.envelope, meaning.meta));
      case 'title':
        if (meaning.given) s.title = meaning.title.trim();
        else s.summary ??= meaning.title.trim();
        return;
      case 'agent':
        return remember(s.agents, meaning.agentId, meaning.callId);
      case 'shell-progress':
        return shellProgress(meaning.callId, meaning.output, out);
      case 'none':
        return;
      case 'extension': {
        emitPending(out);
        const { type: _type, ...data } = line.fields;
        return void emit(out, p.extension(line.type, data));
      }
      default: {
        const unknown: never = meaning;
        throw new Error(`unhandled line meaning ${JSON.stringify(unknown)}`);
      }
    }
  };

  return {
    push(line) {
      const out: TimedPayload[] = [];
      now = lineTime(line.fields);
      const message = isRecord(line.fields.message) ? line.fields.message : undefined;
      if (line.type === 'assistant' && message !== undefined) assistant(line.fields, message, out);
      else if (line.type === 'user' && message !== undefined) user(line.fields, message, out);
      else other(line, out);
      return out;
    },
    flush(mode) {
      const out: TimedPayload[] = [];
      now = undefined;
      const pending = s.pending;
      if (mode === 'pass' || pending === null) {
        // The end of a pass changes nothing: lines of the message being merged may follow.
      } else if (mode === 'idle') {
        for (const payload of previewChunks(pending, at())) emit(out, payload, pending.time);
      } else emitPending(out);
      const done = s.idle === 'text' && Object.keys(s.openCalls).length === 0;
      if (mode === 'final' && s.turnOpen && done) {
        endTurn(out, false);
      }
      return out;
    },
    state: () => structuredClone(s),
  };
}

/** Records key -> value in a bounded map (the oldest entry goes first). */
function remember(map: Record<string, string>, key: string, value: string): void {
  delete map[key];
  map[key] = value;
  const keys = Object.keys(map);
  if (keys.length > maxRemembered) delete map[keys[0]!];
}
