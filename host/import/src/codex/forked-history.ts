import { isRecord, stringOf, type JsonRecord } from '../json-fields.js';
import type { RolloutLine } from './rollout-line.js';

/**
 * The first sentence of the `function_call_output` Codex appends to a forked sub-agent's
 * copy of its parent's history (`FORKED_SPAWN_AGENT_OUTPUT_MESSAGE`, codex-rs/core/src/agent/control.rs).
 */
export const forkedOutputHead = 'You are the newly spawned agent.';

/** Where a forked sub-agent's copy of its parent's history ends. */
export interface ForkEnd {
  /** Lines of the copy (from the line after the child's `session_meta`). */
  readonly lines: number;
  /** The parent's `spawn_agent` call id, when the copy names it. */
  readonly callId: string | undefined;
}

/** One nesting level of copied history: a forked parent's rollout holds its own copy. */
interface Level {
  inTurn: boolean;
  /** Lines seen in a row that may open the child's own turn (context messages). */
  run: number;
  /** Set once a tool call or reasoning is seen: an unfiltered copy ends only at the output. */
  unfiltered: boolean;
}

/** Reads a forked sub-agent's rollout line by line from just after its own `session_meta`. */
export interface ForkScan {
  /** Feeds the next line; the copy's end once this line shows it. */
  push(line: RolloutLine): ForkEnd | undefined;
}

/**
 * Creates a scan of the lines Codex copies from the parent into a forked sub-agent's
 * rollout. The copy ends after the `function_call_output` Codex appends for the
 * parent's spawn call (Codex with `fork_context`, whose copy is the parent's whole
 * rollout), or, in a filtered copy (no tool calls or reasoning), where the child's first
 * `task_started` arrives while the parent's spawning turn is still open, taking the
 * context messages just before it along as the child's own. A `session_meta` inside the
 * copy opens a nested copy (the parent was forked itself), which must end first.
 */
export function createForkScan(): ForkScan {
  const levels: Level[] = [];
  let lines = 0;
  const level = (): Level => levels[levels.length - 1]!;
  const open = (): void => {
    levels.push({ inTurn: false, run: 0, unfiltered: false });
  };
  open();
  return {
    push(line) {
      lines += 1;
      const item = line.payload;
      const type = stringOf(item, 'type') ?? '';
      if (line.type === 'session_meta') {
        if (lines > 1) open();
        return undefined;
      }
      if (line.type === 'response_item' && type.endsWith('_call_output')) {
        const text = outputText(item.output);
        level().run = 0;
        if (!text.startsWith(forkedOutputHead)) return undefined;
        if (levels.length > 1) {
          levels.pop();
          return undefined;
        }
        return { lines, callId: stringOf(item, 'call_id') };
      }
      if (line.type === 'response_item') {
        if (type === 'message' && opensOwnTurn(item)) {
          level().run += 1;
          if (isRealPrompt(item) && !level().inTurn) level().inTurn = true;
          return undefined;
        }
        level().run = 0;
        if (type.endsWith('_call') || type === 'reasoning') level().unfiltered = true;
        return undefined;
      }
      if (line.type !== 'event_msg') {
        level().run = 0;
        return undefined;
      }
      const run = level().run;
      level().run = 0;
      switch (type) {
        case 'user_message':
          level().inTurn = true;
          return undefined;
        case 'task_complete':
        case 'turn_complete':
        case 'turn_aborted':
          level().inTurn = false;
          return undefined;
        case 'task_started':
        case 'turn_started': {
          if (!level().inTurn || level().unfiltered) {
            level().inTurn = true;
            return undefined;
          }
          if (levels.length > 1) {
            levels.pop();
            level().inTurn = true;
            return undefined;
          }
          return { lines: lines - 1 - run, callId: undefined };
        }
        default:
          return undefined;
      }
    },
  };
}

/** The `forked_from_id` of a `session_meta`, when it records one. */
export function forkedFrom(meta: JsonRecord): string | undefined {
  const id = stringOf(meta, 'forked_from_id');
  return id === undefined || id === '' ? undefined : id;
}

/**
 * A message that may open a turn before its `task_started`: developer or system context,
 * a user message (context Codex writes as the user, or the prompt), or an inter-agent
 * message (an assistant message whose only text is JSON naming a recipient).
 */
function opensOwnTurn(item: JsonRecord): boolean {
  const role = stringOf(item, 'role') ?? '';
  if (role !== 'assistant') return true;
  const text = onlyText(item.content);
  if (text === undefined || !text.trimStart().startsWith('{')) return false;
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) && 'recipient' in parsed && 'content' in parsed;
  } catch {
    return false;
  }
}

/** A user message that is a prompt, not the context Codex writes in the user's name. */
function isRealPrompt(item: JsonRecord): boolean {
  if (stringOf(item, 'role') !== 'user') return false;
  const text = (onlyText(item.content) ?? '').trimStart();
  return text !== '' && !text.startsWith('<') && !text.startsWith('# AGENTS.md');
}

function onlyText(content: unknown): string | undefined {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return undefined;
  const texts = content.flatMap((part) =>
    isRecord(part) && typeof part.text === 'string' ? [part.text] : [],
  );
  return texts.length === 0 ? undefined : texts.join('\n');
}

function outputText(output: unknown): string {
  if (typeof output === 'string') return output;
  if (isRecord(output) && typeof output.content === 'string') return output.content;
  return onlyText(output) ?? '';
}
