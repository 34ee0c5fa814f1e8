import { isJournalTime, type LineResult } from '@dsh/journal';

/** A JSON value read from a transcript: untrusted until checked. */
export type JsonRecord = Record<string, unknown>;

/**
 * One line of a Claude Code transcript, checked only as far as routing needs: a JSON
 * object with a string `type`. Every other field stays untrusted (`fields`), because
 * Claude Code versions add and change fields freely.
 */
export interface TranscriptLine {
  readonly type: string;
  readonly fields: JsonRecord;
}

/** Parses one transcript line; a line that is not a JSON object with a `type` is an error. */
export function parseTranscriptLine(text: string): LineResult<TranscriptLine> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  if (!isRecord(parsed)) return { ok: false, error: 'not a JSON object' };
  const { type } = parsed;
  if (typeof type !== 'string' || type === '') return { ok: false, error: 'missing "type"' };
  return { ok: true, value: { type, fields: parsed } };
}

/** True for a plain JSON object. */
export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field, or `undefined`. */
export function stringOf(record: JsonRecord | undefined, key: string): string | undefined {
  const value = record?.[key];
  return typeof value === 'string' ? value : undefined;
}

/** A finite number field, or `undefined`. */
export function numberOf(record: JsonRecord | undefined, key: string): number | undefined {
  const value = record?.[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** The line's `timestamp` in ms, when it is a valid time a journal can hold. */
export function lineTime(record: JsonRecord): number | undefined {
  const text = stringOf(record, 'timestamp');
  if (text === undefined) return undefined;
  const date = new Date(text);
  return isJournalTime(date) ? date.getTime() : undefined;
}
