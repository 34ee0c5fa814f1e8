import { ApprovalDecision, TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import type { EventPayload, Journal } from '@dsh/journal';
import { payloads } from './payloads.js';
import { interruptedResult } from './tool-call-runner.js';

/** Why a turn was left open, as the `agent/error` that closes it says. */
export interface DanglingReason {
  readonly message: string;
  readonly code: string;
}

/** The reason recorded when a host finds a turn that a stopped host left open. */
export const hostStoppedReason: DanglingReason = {
  message:
    'The host stopped while this turn was running (it was killed, crashed or lost power), ' +
    'so the turn ended there; calls still open were interrupted and pending approvals and ' +
    'questions were cancelled. Send a new prompt to continue.',
  code: 'host_stopped',
};

/** The sources of the prompts this runtime starts turns with; other writers own their turns. */
const agentSources = new Set(['user', 'queued']);

/**
 * The events that close a turn the journal left open: an interrupted settlement for each
 * code-dispatch sub-call and each call without one, `cancelled` for each approval and
 * question nobody answered, an `agent/error` saying why, then `turn/end(cancelled)`.
 * Empty when the last turn ended, and for a turn another writer opened (an import may
 * still be writing it).
 */
export function closeDanglingTurn(
  events: readonly SessionEvent[],
  reason: DanglingReason = hostStoppedReason,
): EventPayload[] {
  let turn: number | undefined;
  let lastSource = '';
  let openedBy = '';
  const calls = new Map<string, { turn: number; step: number }>();
  const subCalls = new Map<string, { parentCallId: string; callId: string }>();
  const approvals = new Set<string>();
  const questions = new Set<string>();
  for (const event of events) {
    const p = event.payload;
    switch (p.case) {
      case 'userMessage':
        lastSource = p.value.source;
        break;
      case 'turnStart':
        turn = p.value.turn;
        openedBy = lastSource;
        for (const open of [calls, subCalls, approvals, questions]) open.clear();
        break;
      case 'turnEnd':
        turn = undefined;
        break;
      case 'toolCall':
        calls.set(p.value.callId, { turn: p.value.turn, step: p.value.step });
        break;
      case 'toolResult':
        calls.delete(p.value.callId);
        break;
      case 'codeDispatchStart':
        subCalls.set(subKey(p.value), {
          parentCallId: p.value.parentCallId,
          callId: p.value.callId,
        });
        break;
      case 'codeDispatch':
        subCalls.delete(subKey(p.value));
        break;
      case 'approvalRequested':
        approvals.add(p.value.approvalId);
        break;
      case 'approvalResolved':
        approvals.delete(p.value.approvalId);
        break;
      case 'questionRequested':
        questions.add(p.value.questionId);
        break;
      case 'questionResolved':
        questions.delete(p.value.questionId);
        break;
      default:
        break;
    }
  }
  if (turn === undefined || !agentSources.has(openedBy)) return [];
  const open = turn;
  return [
    // Newest first, so a nested sub-call settles before the run_code that made it.
    ...[...subCalls.values()]
      .reverse()
      .map((sub) => payloads.codeDispatch(sub.parentCallId, sub.callId, interruptedResult())),
    ...[...approvals].map((id) => payloads.approvalResolved(id, ApprovalDecision.CANCELLED)),
    ...[...questions].map((id) => payloads.questionResolved(id, 'cancelled')),
    ...[...calls]
      .filter(([, at]) => at.turn === open)
      .map(([callId, at]) => payloads.toolResult(at, callId, interruptedResult())),
    payloads.agentError(reason.message, reason.code),
    payloads.turnEnd(open, TurnEndReason.CANCELLED),
  ];
}

/**
 * Closes the journal's open turn (see `closeDanglingTurn`) by appending to it; never
 * rewrites, and does nothing to a read-only journal. Meant for the moment a host first
 * opens a journal it serves, before any client or agent sees it. Reads only the last
 * turn (from its `turn/start`, or the last `turn/end`, back one event for the message
 * that opened it); resolves with the number of events appended. The events get `time`,
 * or the current time.
 */
export async function recoverDanglingTurn(
  journal: Journal,
  reason: DanglingReason = hostStoppedReason,
  time?: Date,
): Promise<number> {
  const closing = await danglingTurnClosing(journal, reason);
  if (closing.length === 0) return 0;
  await journal.append(
    closing,
    time === undefined ? undefined : { times: closing.map(() => time) },
  );
  return closing.length;
}

/** The events that would close the journal's open turn; none for a read-only journal. */
export async function danglingTurnClosing(
  journal: Journal,
  reason: DanglingReason,
): Promise<EventPayload[]> {
  if (journal.readOnly || journal.length === 0) return [];
  return closeDanglingTurn(await lastTurnEvents(journal), reason);
}

const readBack = 1000;

/** The events from the event before the last `turn/start` or `turn/end` to the end. */
async function lastTurnEvents(journal: Journal): Promise<SessionEvent[]> {
  const chunks: SessionEvent[][] = [];
  let from = journal.length;
  while (from > 0) {
    const start = Math.max(0, from - readBack);
    const read = await journal.read(start, from);
    chunks.unshift(read);
    from = start;
    const at = read.findLastIndex(
      (e) => e.payload.case === 'turnStart' || e.payload.case === 'turnEnd',
    );
    if (at === -1) continue;
    if (at === 0 && start > 0) chunks.unshift(await journal.read(start - 1, start));
    break;
  }
  return chunks.flat();
}

function subKey(value: { parentCallId: string; callId: string }): string {
  return `${value.parentCallId}\u0000${value.callId}`;
}
