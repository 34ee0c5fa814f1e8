/** The range of RFC 3339 (and protobuf Timestamp) times: years 0001 to 9999. */
const minTimeMs = Date.parse('0001-01-01T00:00:00.000Z');
const maxTimeMs = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * Why explicit append times are unusable, or `undefined` when there is one valid date per
 * payload (a journal line's time must be RFC 3339, which a protobuf Timestamp also bounds).
 */
export function checkAppendTimes(times: readonly Date[], count: number): string | undefined {
  if (times.length !== count) return `${times.length} times for ${count} events`;
  const bad = times.findIndex((time) => !isJournalTime(time));
  if (bad < 0) return undefined;
  return `time ${bad} is not a date in years 0001..9999 (${String(times[bad])})`;
}

/** True for a Date a journal line can hold: valid and within years 0001..9999. */
export function isJournalTime(time: unknown): time is Date {
  return time instanceof Date && time.getTime() >= minTimeMs && time.getTime() <= maxTimeMs;
}
