import { spanMarks, spanText } from './json-span.js';
import { lineStrings, type LineString } from './line-strings.js';
import { namesItsTool, readableKind, topString } from './readable-fields.js';
import { readableSnippet } from './readable-snippet.js';
import type { SearchKindName, SearchQuery, SnippetMatch } from './search-types.js';

/** A byte range a pattern matched in a journal line. */
export interface LineMatchRange {
  readonly start: number;
  readonly end: number;
}

/** What a matching line hits: the event and the snippet of its first readable match. */
export interface LineHit {
  readonly seq: number;
  readonly eventType: string;
  readonly kind: SearchKindName;
  /** The tool's name when the event names it (`tool/call`); empty otherwise. */
  readonly toolName: string;
  readonly callId: string;
  readonly snippet: string;
  readonly matches: SnippetMatch[];
}

/** UTF-16 units of context a snippet keeps before its first match. */
const snippetLead = 60;
/** UTF-16 units a snippet holds at most (besides a match longer than that). */
const snippetLength = 200;

/**
 * Checks the ranges a pattern matched in a journal line (the bytes as stored, found by a
 * search program) against the line's fields: a range counts only inside a string a
 * person reads (`readableKind`) of a kind the query asks for, on character boundaries.
 * Returns the hit with a snippet of the first field that has one, or undefined (a match
 * in a key, an id, an image, the header, or a kind or tool the query leaves out).
 */
export function matchLine(
  line: Uint8Array,
  ranges: readonly LineMatchRange[],
  query: Pick<SearchQuery, 'kinds' | 'toolNames'>,
): LineHit | undefined {
  if (ranges.length === 0) return undefined;
  const shape = lineStrings(line);
  if (shape === undefined || shape.seq === undefined || !Number.isSafeInteger(shape.seq)) {
    return undefined;
  }
  const type = stringValue(line, topString(shape.strings, 'type'));
  if (type === '') return undefined;
  const toolName = namesItsTool(type) ? stringValue(line, topString(shape.strings, 'name')) : '';
  const callId = stringValue(line, topString(shape.strings, 'callId'));
  if (query.toolNames.size > 0 && toolName !== '' && !query.toolNames.has(toolName)) {
    return undefined;
  }
  for (const field of shape.strings) {
    const kind = readableKind(type, field.path);
    if (kind === undefined || !query.kinds.has(kind)) continue;
    if (query.toolNames.size > 0 && (kind === 'prompt' || kind === 'assistant')) continue;
    const inside = ranges.filter((r) => r.start >= field.start && r.end <= field.end);
    if (inside.length === 0) continue;
    const found = fieldSnippet(line, field, inside);
    if (found === undefined) continue;
    // Arguments are JSON text inside the line: written out, they read as what the model sent.
    const hit = kind === 'tool_arguments' ? readableSnippet(found.snippet, found.matches) : found;
    return { seq: shape.seq, eventType: type, kind, toolName, callId, ...hit };
  }
  return undefined;
}

function fieldSnippet(
  line: Uint8Array,
  field: LineString,
  ranges: readonly LineMatchRange[],
): { snippet: string; matches: SnippetMatch[] } | undefined {
  const marks = ranges.flatMap((r) => [r.start, r.end]);
  const order = marks.map((_, i) => i).sort((a, b) => marks[a]! - marks[b]!);
  const measured = spanMarks(
    line,
    field.start,
    field.end,
    order.map((i) => marks[i]!),
  );
  const units: number[] = [];
  order.forEach((markIndex, sortedIndex) => (units[markIndex] = measured.units[sortedIndex]!));
  const aligned = ranges
    .map((_, i) => ({ start: units[2 * i]!, end: units[2 * i + 1]! }))
    .filter((m) => m.start >= 0 && m.end > m.start);
  if (aligned.length === 0) return undefined;
  const first = aligned[0]!;
  const from = Math.max(0, first.start - snippetLead);
  const to = Math.min(measured.length, Math.max(from + snippetLength, first.end));
  const window = spanText(line, field.start, field.end, from, to);
  const windowEnd = window.from + window.text.length;
  const matches = aligned
    .filter((m) => m.end > window.from && m.start < windowEnd)
    .map((m) => ({
      start: Math.max(m.start, window.from) - window.from,
      end: Math.min(m.end, windowEnd) - window.from,
    }));
  return { snippet: window.text, matches };
}

function stringValue(line: Uint8Array, field: LineString | undefined): string {
  if (field === undefined) return '';
  const raw = Buffer.from(line.buffer, line.byteOffset + field.start, field.end - field.start);
  const text = raw.toString('utf8');
  return text.includes('\\') ? (JSON.parse(`"${text}"`) as string) : text;
}
