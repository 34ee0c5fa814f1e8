import type { SessionEvent } from '@dsh/gen/events';

/** The turns of a session's events, in order (from their `turn/start` events). */
export function sessionTurns(events: readonly SessionEvent[]): number[] {
  return events.flatMap((e) => (e.payload.case === 'turnStart' ? [e.payload.value.turn] : []));
}

/** What `turnRange` answers: the events of the turns, or why there are none. */
export type TurnRangeResult =
  | { readonly ok: true; readonly events: SessionEvent[] }
  | { readonly ok: false; readonly error: string };

/**
 * The events of turns `from` to `to` (inclusive): from the person's messages that opened
 * turn `from` (the input is journaled right before `turn/start`) to `turn/end` of turn
 * `to`, or the end when that turn still runs. Everything in between comes along (context,
 * renames, compactions), so the slice folds like the session did.
 */
export function turnRange(
  events: readonly SessionEvent[],
  from: number,
  to: number,
): TurnRangeResult {
  const turns = sessionTurns(events);
  const first = turns[0];
  const last = turns.at(-1);
  if (first === undefined || last === undefined) {
    return { ok: false, error: 'This session has no turns yet: export the whole session instead.' };
  }
  const span = first === last ? `turn ${first}` : `turns ${first}–${last}`;
  if (!Number.isInteger(from) || !Number.isInteger(to) || from > to) {
    return {
      ok: false,
      error: `Pick a first turn no later than the last one (the session has ${span}).`,
    };
  }
  if (!turns.includes(from) || !turns.includes(to)) {
    return { ok: false, error: `The session has ${span}: pick turns inside that range.` };
  }
  let start = events.findIndex(
    (e) => e.payload.case === 'turnStart' && e.payload.value.turn === from,
  );
  while (start > 0 && opensTurn(events[start - 1]!)) start -= 1;
  const endAt = events.findIndex(
    (e, i) => i > start && e.payload.case === 'turnEnd' && e.payload.value.turn === to,
  );
  return { ok: true, events: events.slice(start, endAt < 0 ? events.length : endAt + 1) };
}

/** The input a turn starts from (and its leaving the queue), journaled before `turn/start`. */
function opensTurn(event: SessionEvent): boolean {
  return event.payload.case === 'userMessage' || event.payload.case === 'inputUnqueued';
}
