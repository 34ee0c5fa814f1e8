import type { TimedPayload } from './claude-code/transcript-converter.js';

/**
 * The journal time of each event: its transcript line's time; an event before the
 * transcript showed any time takes the next event's, or `fallback` (the file's mtime)
 * when none follows.
 */
export function eventTimes(events: readonly TimedPayload[], fallback: Date): Date[] {
  const times: Date[] = [];
  let next = fallback.getTime();
  for (let i = events.length - 1; i >= 0; i -= 1) {
    next = events[i]!.time ?? next;
    times.push(new Date(next));
  }
  return times.reverse();
}
