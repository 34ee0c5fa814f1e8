import { isJournalTime } from '@dsh/journal';

/** A JSON value read from a transcript: untrusted until checked. */
export type JsonRecord = Record<string, unknown>;

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

/** Parses JSON text into an object; `undefined` when it is not a JSON object. */
export function parseRecord(text: string | undefined): JsonRecord | undefined {
  if (text === undefined) return undefined;
  try {
    const parsed = JSON.parse(text) as unknown;
    return isRecord(parsed) ? parsed : undefined;
  } catch {
    return undefined;
  }
}
