import type { LineResult } from '@dsh/journal';
import { isRecord, type JsonRecord } from '../json-fields.js';

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
