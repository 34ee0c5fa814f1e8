import type { JournalStore } from '@dsh/journal';
import { isRecord, parseRecord, stringOf, type JsonRecord } from '../json-fields.js';

/** Who spawned a sub-agent rollout, from its `session_meta`. */
export interface SpawnOrigin {
  /** The Codex thread (session) id of the parent. */
  readonly parentThreadId: string;
  readonly nickname: string;
  readonly role: string;
}

/**
 * The spawn origin a `session_meta` payload records: `source.subagent.thread_spawn`
 * (also spelled `sub_agent`) with `parent_thread_id`, or a top-level `parent_thread_id`;
 * nickname and role from `agent_nickname` / `agent_role` there or at the top. `undefined`
 * for a session a person started (and for review and compaction agents, which name no
 * parent).
 */
export function spawnOrigin(meta: JsonRecord): SpawnOrigin | undefined {
  const source = isRecord(meta.source) ? meta.source : undefined;
  const subagent = source?.subagent ?? source?.sub_agent;
  const spawn = isRecord(subagent) && isRecord(subagent.thread_spawn) ? subagent.thread_spawn : {};
  const parentThreadId =
    stringOf(spawn, 'parent_thread_id') ?? stringOf(meta, 'parent_thread_id') ?? '';
  if (parentThreadId === '') return undefined;
  return {
    parentThreadId,
    nickname: stringOf(spawn, 'agent_nickname') ?? stringOf(meta, 'agent_nickname') ?? '',
    role: stringOf(spawn, 'agent_role') ?? stringOf(meta, 'agent_role') ?? '',
  };
}

/** The thread id a `spawn_agent` output names (`{"agent_id": ...}`), if any. */
export function spawnedThreadId(output: string): string | undefined {
  const id = parseRecord(output)?.agent_id;
  return typeof id === 'string' && id !== '' ? id : undefined;
}

/**
 * The thread id and call id of a spawn that an `event_msg` reports
 * (`collab_agent_spawn_end`: `call_id`, `new_thread_id`; `sub_agent_activity`:
 * `event_id`, `agent_thread_id`), if it is one.
 */
export function spawnEvent(event: JsonRecord): { callId: string; threadId: string } | undefined {
  const pair = (callKey: string, threadKey: string) => {
    const callId = stringOf(event, callKey) ?? '';
    const threadId = stringOf(event, threadKey) ?? '';
    return callId === '' || threadId === '' ? undefined : { callId, threadId };
  };
  switch (event.type) {
    case 'collab_agent_spawn_end':
      return pair('call_id', 'new_thread_id');
    case 'sub_agent_activity':
      return pair('event_id', 'agent_thread_id');
    default:
      return undefined;
  }
}

/** The parent's call that spawned a sub-agent session, as far as the parent's journal shows it. */
export interface SpawnCall {
  readonly callId: string | undefined;
  /** The first line of the message the call gave the sub-agent. */
  readonly message: string | undefined;
}

const pageSize = 1000;

/**
 * Finds the call of session `parentId` whose result links `childId` (its
 * `childSessionId` meta), reading the parent's journal a page at a time.
 */
export async function spawnCallOf(
  store: JournalStore,
  parentId: string,
  childId: string,
): Promise<SpawnCall> {
  const journal = await store.open(parentId);
  const needle = `"childSessionId":${JSON.stringify(childId)}`;
  const args = new Map<string, string>();
  for (let from = 0; from < journal.length; from += pageSize) {
    const events = await journal.read(from, Math.min(from + pageSize, journal.length));
    for (const { payload } of events) {
      if (payload.case === 'toolCall') args.set(payload.value.callId, payload.value.arguments);
      if (payload.case !== 'toolResult' || !payload.value.metaJson.includes(needle)) continue;
      const callId = payload.value.callId;
      const message = stringOf(parseRecord(args.get(callId) ?? ''), 'message');
      return { callId, message: message?.trim().split('\n', 1)[0] };
    }
  }
  return { callId: undefined, message: undefined };
}

/** The text of the context row a sub-agent session starts with. */
export function spawnText(origin: SpawnOrigin, parentId: string, call: SpawnCall): string {
  const who = [origin.nickname, origin.role === '' ? '' : `(${origin.role})`]
    .filter((w) => w !== '')
    .join(' ');
  const by =
    call.message !== undefined && call.message !== ''
      ? `the spawn_agent call "${call.message.length > 80 ? `${call.message.slice(0, 79)}…` : call.message}"`
      : call.callId !== undefined
        ? `spawn_agent call ${call.callId}`
        : 'a spawn_agent call';
  return `Sub-agent${who === '' ? '' : ` ${who}`} started by ${by} in session ${parentId}`;
}

/** What the context row adds for a forked sub-agent, whose rollout starts with its parent's history. */
export function forkText(lines: number): string {
  return `; it started from a copy of that session's history (${lines} rollout line${lines === 1 ? '' : 's'}), shown there and not repeated here`;
}
