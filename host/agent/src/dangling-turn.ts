import { TurnEndReason, type SessionEvent } from '@dsh/gen/events';
import type { EventPayload } from '@dsh/journal';
import { payloads } from './payloads.js';
import { interruptedResult } from './tool-call-runner.js';

/**
 * The events that close a turn the journal left open (the host stopped mid-turn): an
 * interrupted result for each call without one, then `turn/end(cancelled)`. Empty when
 * the last turn ended.
 */
export function closeDanglingTurn(events: readonly SessionEvent[]): EventPayload[] {
  let open: number | undefined;
  const calls = new Map<string, { turn: number; step: number }>();
  for (const event of events) {
    const p = event.payload;
    if (p.case === 'turnStart') open = p.value.turn;
    else if (p.case === 'turnEnd') open = undefined;
    else if (p.case === 'toolCall')
      calls.set(p.value.callId, { turn: p.value.turn, step: p.value.step });
    else if (p.case === 'toolResult') calls.delete(p.value.callId);
  }
  if (open === undefined) return [];
  const turn = open;
  return [
    ...[...calls]
      .filter(([, at]) => at.turn === turn)
      .map(([callId, at]) => payloads.toolResult(at, callId, interruptedResult())),
    payloads.turnEnd(turn, TurnEndReason.CANCELLED),
  ];
}
