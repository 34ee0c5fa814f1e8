import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, UsageSchema, type ContentBlock, type Usage } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import { eventPayloads as p, type EventPayload } from '@dsh/journal';
import { textBlock } from '../content-blocks.js';
import { isRecord, numberOf, stringOf, type JsonRecord } from '../json-fields.js';
import { contentOf, previewChunks, type PendingBlock } from '../claude-code/pending-message.js';
import type { FlushMode, TimedPayload } from '../claude-code/transcript-converter.js';
import { extensionPayload, interruptedResult } from '../import-payloads.js';
import {
  localShellCall,
  patchParts,
  translateCodexCall,
  translateCodexOutput,
  type CodexCall,
} from './codex-tools.js';
import type { RolloutLine } from './rollout-line.js';
import { forkedFrom, type ForkEnd } from './forked-history.js';
import { codexSessionId } from './codex-session-id.js';
import { spawnEvent, spawnOrigin, spawnedThreadId, type SpawnOrigin } from './codex-subagents.js';

/** The `source` of messages a Codex import writes. */
export const codexSource = 'codex';

/** Context envelopes of a Codex import (labelled by card-models' context view). */
export const codexEnvelopes = {
  compaction: 'codex/compaction',
  context: 'codex/context',
  notice: 'codex/notice',
  review: 'codex/review',
  subagent: 'codex/subagent',
} as const;

/** A call whose result has not been read yet. */
interface OpenCodexCall extends CodexCall {
  readonly turn: number;
  readonly step: number;
  /** The Codex call id of a call that is one file of a multi-file patch. */
  readonly codexId?: string;
}

/** The conversion state of one rollout: JSON, so an import can continue where it stopped. */
export interface RolloutState {
  turn: number;
  turnOpen: boolean;
  step: number;
  openCalls: Record<string, OpenCodexCall>;
  /** The response being gathered: reasoning, messages and calls until an output or turn end. */
  pending: { blocks: PendingBlock[]; time?: number; previewed: number } | null;
  /** Token usage reported and not yet given to a message. */
  usage: { input: number; cached: number; output: number } | null;
  /** The last `total_token_usage.total_tokens` seen: Codex repeats a count line. */
  lastTotal: number;
  model: string;
  /** User-role items not yet known to be the prompt (Codex records the prompt twice). */
  held: { text: string; images: string[]; time?: number }[];
  time?: number;
  /** From `session_meta`. */
  sessionId: string;
  cwd: string;
  version: string;
  /** The first prompt's request (without the IDE context Codex's editor extensions add). */
  title: string;
  /** Set when the rollout is a sub-agent's: the session that spawned it. */
  origin?: SpawnOrigin;
  /** Thread ids of the sub-agents spawn events reported, by the spawning call's id. */
  spawned?: Record<string, string>;
  /** Set when the rollout is a forked sub-agent's: it starts with a copy of its parent's history. */
  forked?: boolean;
  /** How the copy was read: cut (its lines and the spawn call it names) or shown whole. */
  fork?: { lines: number; callId?: string } | 'shown';
}

/** The state a fresh rollout starts with. */
export function initialRolloutState(): RolloutState {
  return {
    turn: 0,
    turnOpen: false,
    step: 0,
    openCalls: {},
    pending: null,
    usage: null,
    lastTotal: -1,
    model: '',
    held: [],
    sessionId: '',
    cwd: '',
    version: '',
    title: '',
    spawned: {},
  };
}

/** A rollout line or item the converter does not map, kept whole as `codex/<kind>`. */
function extension(kind: string, data: JsonRecord): EventPayload {
  return extensionPayload(codexSource, kind, data);
}

/** Turns rollout lines into dsh event payloads, one line at a time. */
export interface RolloutConverter {
  push(line: RolloutLine): TimedPayload[];
  /** The events the end of a pass adds (see `FlushMode`). */
  flush(mode: FlushMode): TimedPayload[];
  /** Records where a forked sub-agent's copy of its parent's history ended, or that it is shown. */
  settleFork(end: ForkEnd | undefined): void;
  state(): RolloutState;
}

/** Images larger than this (decoded) are replaced by a placeholder text. */
export const maxImageBytes = 5 << 20;

/** `event_msg` types that repeat what response items say, or are bookkeeping: no event. */
const quietEvents: ReadonlySet<string> = new Set([
  'agent_message',
  'agent_message_delta',
  'agent_reasoning',
  'agent_reasoning_delta',
  'agent_reasoning_raw_content',
  'agent_reasoning_raw_content_delta',
  'agent_reasoning_section_break',
  'task_started',
  'context_compacted',
  'session_configured',
  'exec_command_begin',
  'exec_command_end',
  'exec_command_output_delta',
  'exec_approval_request',
  'apply_patch_approval_request',
  'patch_apply_begin',
  'patch_apply_end',
  'mcp_tool_call_begin',
  'mcp_tool_call_end',
  'mcp_list_tools_response',
  'web_search_begin',
  'web_search_end',
  'view_image_tool_call',
  'turn_diff',
  'plan_update',
  'get_history_entry_response',
  'list_custom_prompts_response',
  'background_event',
  'item_started',
  'item_completed',
  'raw_response_item',
  'shutdown_complete',
  'undo_started',
  'undo_completed',
  'deprecation_notice',
  'collab_agent_spawn_begin',
  'collab_agent_spawn_end',
  'collab_agent_interaction_begin',
  'collab_agent_interaction_end',
  'collab_waiting_begin',
  'collab_waiting_end',
  'collab_close_begin',
  'collab_close_end',
  'collab_resume_begin',
  'collab_resume_end',
  'sub_agent_activity',
]);

/**
 * Creates a rollout converter. A response's reasoning, messages and calls become one
 * `assistant/message` (and a `tool/call` per call) when its first output, the next prompt
 * or the turn's end is read, with the token usage reported since the last message.
 */
export function createRolloutConverter(
  initial: RolloutState = initialRolloutState(),
): RolloutConverter {
  const s: RolloutState = structuredClone(initial);
  let now: number | undefined;
  const at = () => ({ turn: s.turn, step: s.step });
  const emit = (out: TimedPayload[], payload: EventPayload, time = now ?? s.time): void => {
    if (time !== undefined) s.time = time;
    out.push({ payload, time });
  };
  const context = (out: TimedPayload[], text: string, envelope: string, meta?: JsonRecord) =>
    emit(
      out,
      p.contextMessage([textBlock(text)], codexSource, envelope, meta ? JSON.stringify(meta) : ''),
    );

  const openTurn = (out: TimedPayload[]): void => {
    if (s.turnOpen) return;
    s.turn += 1;
    s.step = 0;
    s.turnOpen = true;
    emit(out, p.turnStart(s.turn));
  };

  const emitHeld = (out: TimedPayload[]): void => {
    for (const item of s.held.splice(0)) {
      emit(
        out,
        p.contextMessage(
          userContent(item.text, item.images),
          codexSource,
          codexEnvelopes.context,
          '',
        ),
        item.time,
      );
    }
  };

  const emitPending = (out: TimedPayload[]): void => {
    const pending = s.pending;
    if (pending === null) return;
    s.pending = null;
    const time = pending.time ?? now ?? s.time;
    const content = pending.blocks.flatMap((b) => contentOf(b) ?? []);
    if (content.length === 0) return;
    openTurn(out);
    const calls = pending.blocks.flatMap((b) => (b.kind === 'tool' ? [b] : []));
    const usage = usageOf(s.usage);
    s.usage = null;
    const finish = calls.length > 0 ? 'tool_use' : 'stop';
    emit(out, p.assistantMessage(at(), content, usage, s.model, finish), time);
    for (const call of calls) emit(out, p.toolCall(at(), call.id, call.name, call.args), time);
    s.step += 1;
  };

  const block = (next: PendingBlock, call?: CodexCall, codexId?: string): void => {
    s.pending ??= { blocks: [], previewed: 0 };
    s.pending.blocks.push(next);
    if (now !== undefined) s.pending.time = now;
    if (call !== undefined && next.kind === 'tool') {
      const at = { turn: s.turn, step: s.step, ...(codexId === undefined ? {} : { codexId }) };
      s.openCalls[next.id] = { ...call, ...at };
    }
  };

  /** Gathers a call, split into one dsh call per file when it patches several files. */
  const callBlocks = (id: string, call: CodexCall): void => {
    const parts = patchParts(call);
    if (parts.length === 1) {
      block({ kind: 'tool', id, name: call.name, args: call.args }, call);
      return;
    }
    for (const [index, part] of parts.entries()) {
      const partId = `${id}#${index + 1}`;
      block({ kind: 'tool', id: partId, name: part.name, args: part.args }, part, id);
    }
  };

  const endTurn = (out: TimedPayload[], cancelled: boolean): void => {
    emitPending(out);
    emitHeld(out);
    const open = Object.entries(s.openCalls);
    for (const [callId, call] of open) {
      emit(out, interruptedResult(call, callId));
    }
    s.openCalls = {};
    if (!s.turnOpen) return;
    s.turnOpen = false;
    const reason = cancelled || open.length > 0 ? TurnEndReason.CANCELLED : TurnEndReason.COMPLETED;
    emit(out, p.turnEnd(s.turn, reason));
  };

  const result = (out: TimedPayload[], callId: string, output: string): void => {
    emitPending(out);
    emitHeld(out);
    const parts = Object.entries(s.openCalls).filter(([, c]) => c.codexId === callId);
    if (parts.length === 0) {
      const call = Object.hasOwn(s.openCalls, callId) ? s.openCalls[callId] : undefined;
      if (call !== undefined) delete s.openCalls[callId];
      settle(out, callId, call, output);
      return;
    }
    for (const [partId, part] of parts) {
      delete s.openCalls[partId];
      settle(out, partId, part, output);
    }
  };

  const settle = (
    out: TimedPayload[],
    callId: string,
    call: OpenCodexCall | undefined,
    output: string,
  ): void => {
    const r = translateCodexOutput(call, output);
    const child = call?.name === 'spawn_agent' ? spawnedChild(callId, output) : undefined;
    const meta = child === undefined ? r.meta : { childSessionId: child };
    const position = call ?? { turn: s.turn, step: Math.max(s.step - 1, 0) };
    emit(out, {
      case: 'toolResult',
      value: {
        $typeName: 'dsh.session.v1.ToolResult',
        turn: position.turn,
        step: position.step,
        callId,
        content: [textBlock(r.text)],
        isError: r.isError,
        error: r.error,
        metaJson: meta === undefined ? '' : JSON.stringify(meta),
      },
    });
  };

  /** The session of the sub-agent a `spawn_agent` call started, by its spawn event or output. */
  const spawnedChild = (callId: string, output: string): string | undefined => {
    const known = Object.hasOwn(s.spawned ?? {}, callId) ? s.spawned?.[callId] : undefined;
    const threadId = known ?? spawnedThreadId(output);
    if (s.spawned !== undefined) delete s.spawned[callId];
    return threadId === undefined ? undefined : codexSessionId(threadId);
  };

  const responseItem = (item: JsonRecord, out: TimedPayload[]): void => {
    const type = stringOf(item, 'type') ?? '';
    switch (type) {
      case 'message': {
        const role = stringOf(item, 'role') ?? '';
        const { text, images } = messageContent(item.content);
        if (role === 'assistant') {
          emitHeld(out);
          if (text !== '') block({ kind: 'text', text });
          return;
        }
        if (role === 'user') {
          s.held.push({ text, images, time: now });
          return;
        }
        emitPending(out);
        emitHeld(out);
        context(out, text, codexEnvelopes.context, { role });
        return;
      }
      case 'reasoning': {
        emitHeld(out);
        const text = reasoningText(item);
        if (text !== '') block({ kind: 'reasoning', text, signature: '' });
        return;
      }
      case 'function_call':
      case 'custom_tool_call': {
        emitHeld(out);
        const id = stringOf(item, 'call_id') ?? stringOf(item, 'id') ?? '';
        const name = stringOf(item, 'name') ?? '';
        const input = stringOf(item, type === 'function_call' ? 'arguments' : 'input') ?? '';
        callBlocks(id, translateCodexCall(name, input));
        return;
      }
      case 'local_shell_call': {
        emitHeld(out);
        const id = stringOf(item, 'call_id') ?? stringOf(item, 'id') ?? '';
        callBlocks(id, localShellCall(item.action));
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output':
        result(out, stringOf(item, 'call_id') ?? '', outputText(item.output));
        return;
      case 'web_search_call': {
        emitHeld(out);
        const action = isRecord(item.action) ? item.action : {};
        const queries = Array.isArray(action.queries)
          ? action.queries.filter((q): q is string => typeof q === 'string')
          : [];
        const query = stringOf(action, 'query') ?? queries[0] ?? '';
        const id =
          stringOf(item, 'id') ?? `web-search-${s.turn}-${s.step}-${s.pending?.blocks.length ?? 0}`;
        const args = JSON.stringify(query === '' ? {} : { query });
        const call: CodexCall = { name: 'web_search', args, kind: 'search' };
        block({ kind: 'tool', id, name: call.name, args }, call);
        emitPending(out);
        const status = stringOf(item, 'status') ?? 'completed';
        result(out, id, query === '' ? `Web search ${status}` : `Searched the web for "${query}"`);
        return;
      }
      case 'compaction':
      case 'compaction_summary':
        emitPending(out);
        context(out, 'Codex compacted the conversation', codexEnvelopes.compaction);
        return;
      case 'ghost_snapshot':
      case 'other':
        return;
      default:
        emitPending(out);
        emit(out, extension(`response_item/${type}`, item));
    }
  };

  const eventMsg = (event: JsonRecord, out: TimedPayload[]): void => {
    const type = stringOf(event, 'type') ?? '';
    const spawn = spawnEvent(event);
    if (spawn !== undefined) (s.spawned ??= {})[spawn.callId] = spawn.threadId;
    if (quietEvents.has(type)) return;
    switch (type) {
      case 'user_message': {
        emitPending(out);
        const message = stringOf(event, 'message') ?? '';
        const same = s.held.findLastIndex((h) => h.text === message);
        const prompt = same === -1 ? s.held.length - 1 : same;
        if (prompt >= 0) s.held.splice(prompt, 1);
        if (s.turnOpen) endTurn(out, false);
        emitHeld(out);
        const images = Array.isArray(event.images)
          ? event.images.filter((i): i is string => typeof i === 'string')
          : [];
        const { ide, request } = splitIdeContext(message);
        if (ide !== undefined) context(out, ide, codexEnvelopes.context, { kind: 'ide' });
        emit(out, p.userMessage(userContent(request, images), codexSource));
        if (s.title === '') s.title = request.trim();
        openTurn(out);
        return;
      }
      case 'token_count': {
        const info = isRecord(event.info) ? event.info : undefined;
        const total = isRecord(info?.total_token_usage) ? info.total_token_usage : undefined;
        const last = isRecord(info?.last_token_usage) ? info.last_token_usage : undefined;
        const totalTokens = numberOf(total, 'total_tokens');
        if (last === undefined || totalTokens === undefined || totalTokens === s.lastTotal) return;
        s.lastTotal = totalTokens;
        const usage = (s.usage ??= { input: 0, cached: 0, output: 0 });
        usage.input += numberOf(last, 'input_tokens') ?? 0;
        usage.cached += numberOf(last, 'cached_input_tokens') ?? 0;
        usage.output += numberOf(last, 'output_tokens') ?? 0;
        return;
      }
      case 'task_complete':
        endTurn(out, false);
        return;
      case 'turn_aborted':
        endTurn(out, true);
        return;
      case 'error':
        emitPending(out);
        emit(
          out,
          p.agentError(stringOf(event, 'message') ?? 'Codex reported an error', 'codex_error'),
        );
        return;
      case 'stream_error':
      case 'warning':
        context(out, stringOf(event, 'message') ?? type, codexEnvelopes.notice, { type });
        return;
      case 'entered_review_mode':
      case 'exited_review_mode':
        emitPending(out);
        context(out, reviewText(type, event), codexEnvelopes.review, { type });
        return;
      default:
        emit(out, extension(`event_msg/${type}`, event));
    }
  };

  return {
    push(line) {
      now = line.time;
      const out: TimedPayload[] = [];
      switch (line.type) {
        case 'session_meta':
          // A forked sub-agent's rollout repeats its parent's `session_meta` after its own.
          if (s.sessionId !== '') break;
          s.sessionId = stringOf(line.payload, 'id') ?? s.sessionId;
          s.cwd = stringOf(line.payload, 'cwd') ?? s.cwd;
          s.version = stringOf(line.payload, 'cli_version') ?? s.version;
          s.origin = spawnOrigin(line.payload);
          s.forked = s.origin !== undefined && forkedFrom(line.payload) !== undefined;
          break;
        case 'turn_context':
          s.model = stringOf(line.payload, 'model') ?? s.model;
          s.cwd ||= stringOf(line.payload, 'cwd') ?? '';
          break;
        case 'response_item':
          responseItem(line.payload, out);
          break;
        case 'event_msg':
          eventMsg(line.payload, out);
          break;
        case 'compacted': {
          emitPending(out);
          emitHeld(out);
          const message = stringOf(line.payload, 'message') ?? '';
          const kept = Array.isArray(line.payload.replacement_history)
            ? line.payload.replacement_history.length
            : undefined;
          const text =
            message.trim() !== ''
              ? message
              : `Codex compacted the conversation${kept === undefined ? '' : ` (${kept} items kept)`}`;
          context(out, text, codexEnvelopes.compaction, kept === undefined ? undefined : { kept });
          break;
        }
        default:
          emit(out, extension(line.type, line.payload));
      }
      now = undefined;
      return out;
    },
    flush(mode) {
      const out: TimedPayload[] = [];
      if (mode === 'pass') return out;
      if (mode === 'idle') {
        if (s.pending !== null) {
          const pending = { id: '', model: s.model, usage: null, stop: '', ...s.pending };
          for (const payload of previewChunks(pending, at())) emit(out, payload, s.pending.time);
          s.pending.previewed = pending.previewed;
        }
        return out;
      }
      emitPending(out);
      emitHeld(out);
      if (s.turnOpen && Object.keys(s.openCalls).length === 0) endTurn(out, false);
      return out;
    },
    settleFork(end) {
      s.fork =
        end === undefined
          ? 'shown'
          : { lines: end.lines, ...(end.callId === undefined ? {} : { callId: end.callId }) };
    },
    state: () => structuredClone(s),
  };
}

function usageOf(usage: RolloutState['usage']): Usage | undefined {
  if (usage === null) return undefined;
  const clamp = (n: number) => Math.min(Math.max(Math.trunc(n), 0), 4_294_967_295);
  return create(UsageSchema, {
    inputTokens: clamp(usage.input - usage.cached),
    cacheReadTokens: clamp(usage.cached),
    outputTokens: clamp(usage.output),
  });
}

/** The text and image URLs of a message item's `content` list. */
function messageContent(content: unknown): { text: string; images: string[] } {
  if (typeof content === 'string') return { text: content, images: [] };
  if (!Array.isArray(content)) return { text: '', images: [] };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of content) {
    if (!isRecord(part)) continue;
    const text = stringOf(part, 'text');
    if (text !== undefined) texts.push(text);
    const image = stringOf(part, 'image_url');
    if (part.type === 'input_image' && image !== undefined) images.push(image);
  }
  return { text: texts.join('\n'), images };
}

function reasoningText(item: JsonRecord): string {
  const parts = (list: unknown): string[] =>
    Array.isArray(list)
      ? list.flatMap((x) => (isRecord(x) && typeof x.text === 'string' ? [x.text] : []))
      : [];
  const content = parts(item.content);
  return (content.length > 0 ? content : parts(item.summary)).join('\n\n');
}

/** A function output's text: Codex writes a string, or content items in newer versions. */
function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  if (Array.isArray(output)) {
    return output
      .flatMap((x) => (isRecord(x) && typeof x.text === 'string' ? [x.text] : []))
      .join('\n');
  }
  return JSON.stringify(output ?? '');
}

/** A prompt's blocks: its text and its images (data URLs), each capped at `maxImageBytes`. */
function userContent(text: string, images: readonly string[]): ContentBlock[] {
  const blocks: ContentBlock[] = text === '' && images.length > 0 ? [] : [textBlock(text)];
  for (const url of images) {
    const match = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(url);
    if (!match) {
      blocks.push(textBlock(`[image: ${url.length > 200 ? `${url.slice(0, 199)}…` : url}]`));
      continue;
    }
    const data = Buffer.from(match[2]!, 'base64');
    if (data.length > maxImageBytes) {
      blocks.push(
        textBlock(
          `[image ${match[1]} of ${data.length} bytes left out: larger than ${maxImageBytes} bytes]`,
        ),
      );
      continue;
    }
    blocks.push(
      create(ContentBlockSchema, {
        block: { case: 'image', value: { mediaType: match[1]!, data } },
      }),
    );
  }
  return blocks;
}

const ideHead = '# Context from my IDE setup:';
const requestHead = '## My request for Codex:';

/**
 * A prompt an editor extension prefixed with `# Context from my IDE setup:` (open tabs,
 * the active file, a selection) split into that context and the request after
 * `## My request for Codex:`; other prompts are all request.
 */
function splitIdeContext(message: string): { ide: string | undefined; request: string } {
  const at = message.indexOf(requestHead);
  if (!message.trimStart().startsWith(ideHead) || at === -1)
    return { ide: undefined, request: message };
  return {
    ide: message.slice(0, at).trim(),
    request: message
      .slice(at + requestHead.length)
      .replace(/^\s*\n/, '')
      .trimEnd(),
  };
}

function reviewText(type: string, event: JsonRecord): string {
  if (type === 'entered_review_mode') {
    const hint = stringOf(event, 'user_facing_hint') ?? '';
    return `Codex started a review${hint === '' ? '' : `: ${hint}`}`;
  }
  const output = isRecord(event.review_output) ? event.review_output : undefined;
  const explanation = stringOf(output, 'overall_explanation') ?? '';
  return `Codex finished the review${explanation === '' ? '' : `: ${explanation}`}`;
}
