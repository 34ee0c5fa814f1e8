import { isRecord, lineTime, type JsonRecord } from '../json-fields.js';

/** One line of a Codex rollout file: `{timestamp, type, payload}`. */
export interface RolloutLine {
  readonly type: string;
  readonly payload: JsonRecord;
  /** The line's time in ms, when it has a valid one. */
  readonly time: number | undefined;
}

/** Parses one rollout line; an error text when it is not JSON or not a rollout item. */
export function parseRolloutLine(
  text: string,
): { ok: true; value: RolloutLine } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not JSON (${(error as Error).message})` };
  }
  if (!isRecord(value) || typeof value.type !== 'string')
    return { ok: false, error: 'not a rollout item (no "type")' };
  const payload = isRecord(value.payload) ? value.payload : {};
  return { ok: true, value: { type: value.type, payload, time: lineTime(value) } };
}
