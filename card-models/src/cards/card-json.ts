import type { ContentBlock } from '@dsh/gen/content';
import type { ToolCallBlock } from '../conversation/types.js';

/** A JSON object read from untrusted text: fields are still `unknown` until checked. */
export type JsonObject = Readonly<Record<string, unknown>>;

/** Parses untrusted JSON text into an object; `undefined` for anything else, never throws. */
export function parseJsonObject(text: string): JsonObject | undefined {
  if (text === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  return isObject(value) ? value : undefined;
}

/** True for a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** True for a whole number that can be a line number or count (0 or more). */
export function isCount(value: unknown): value is number {
  return Number.isInteger(value) && (value as number) >= 0;
}

/** A string field, or `undefined` when absent or of another type. */
export function stringField(object: JsonObject, key: string): string | undefined {
  const value = object[key];
  return typeof value === 'string' ? value : undefined;
}

/**
 * The call facts shared by the file cards: the parsed arguments of a top-level call
 * whose head is in the window. Sub-calls, missing heads and malformed arguments give
 * `undefined`, because SPEC 7.2 shows those as Generic for diff, read, search and web.
 */
export function topLevelArgs(block: ToolCallBlock): JsonObject | undefined {
  if (block.parentCallId !== undefined || block.call === null) return undefined;
  return parseJsonObject(block.argsRaw);
}

/**
 * The parsed meta of a successful settled call, or `undefined` when the call is not
 * settled ok or its meta is missing or not a JSON object.
 */
export function successMeta(block: ToolCallBlock): JsonObject | undefined {
  const result = block.result;
  if (block.status !== 'ok' || !result || result.isError) return undefined;
  return parseJsonObject(result.metaJson);
}

/** The text blocks of a result joined by newlines (other block kinds are left out). */
export function resultText(content: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    if (block.block.case === 'text') parts.push(block.block.value.text);
  }
  return parts.join('\n');
}
