import { parseReadEnvelope, type ReadEnvelope } from '../contract/read-envelope.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { isCount, stringField, successMeta, topLevelArgs, type JsonObject } from './card-json.js';
import { displayPath, type PathFacts } from './path-facts.js';
import { previewLines } from './preview-lines.js';

/** One shown line of a file with its 1-based line number. */
export interface ReadLine {
  readonly number: number;
  readonly text: string;
}

/** Props of a read call while it runs: the summary row (path and requested range). */
export interface RunningReadCard {
  readonly kind: 'read';
  readonly state: 'running';
  readonly path: string;
  readonly displayPath: string;
  /** The requested first line, when the call gave one. */
  readonly offset: number | undefined;
  /** The requested line count, when the call gave one. */
  readonly limit: number | undefined;
}

/** Props of a settled read: the shown lines, numbered, and the facts from meta. */
export interface SettledReadCard {
  readonly kind: 'read';
  readonly state: 'ok';
  readonly path: string;
  readonly displayPath: string;
  /** First line shown, 1-based (as recorded in meta). */
  readonly offset: number;
  /** Number of lines shown. */
  readonly lineCount: number;
  readonly totalLines: number;
  /** highlight.js language name guessed by the tool, '' when unknown. */
  readonly lang: string;
  /** Every shown line, for details. */
  readonly lines: readonly ReadLine[];
  /** The first lines, for the conversation. */
  readonly previewLines: readonly ReadLine[];
  /** Lines left out of `previewLines`. */
  readonly hiddenLines: number;
}

/** Props of a read card (SPEC 7.2 "Read"). */
export type ReadCard = RunningReadCard | SettledReadCard;

/**
 * The read card of a `read` call, or `undefined` for the Generic card: errors,
 * sub-calls, malformed arguments, and meta missing or disagreeing with the content
 * envelope. Never throws.
 */
export function readCard(block: ToolCallBlock, facts: PathFacts): ReadCard | undefined {
  if (block.name !== 'read') return undefined;
  const args = topLevelArgs(block);
  const argPath = args && stringField(args, 'file_path');
  if (!args || !argPath) return undefined;
  if (block.status === 'running') {
    const offset = optionalCount(args, 'offset');
    const limit = optionalCount(args, 'limit');
    if (offset === null || limit === null) return undefined;
    return {
      kind: 'read',
      state: 'running',
      path: argPath,
      displayPath: displayPath(argPath, facts),
      offset,
      limit,
    };
  }
  const meta = readMeta(successMeta(block));
  const envelope = singleTextEnvelope(block);
  if (!meta || !envelope || !agrees(meta, envelope)) return undefined;
  const lines = envelope.lines.map((text, i) => ({ number: envelope.firstLine + i, text }));
  const { preview, hidden } = previewLines(lines);
  return {
    kind: 'read',
    state: 'ok',
    path: meta.path,
    displayPath: displayPath(meta.path, facts),
    offset: meta.offset,
    lineCount: meta.lines,
    totalLines: meta.totalLines,
    lang: meta.lang,
    lines,
    previewLines: preview,
    hiddenLines: hidden,
  };
}

interface CheckedReadMeta {
  path: string;
  offset: number;
  lines: number;
  totalLines: number;
  lang: string;
}

function readMeta(meta: JsonObject | undefined): CheckedReadMeta | undefined {
  if (!meta) return undefined;
  const { path, offset, lines, totalLines, lang } = meta;
  if (typeof path !== 'string' || path === '' || typeof lang !== 'string') return undefined;
  if (!isCount(offset) || !isCount(lines) || !isCount(totalLines)) return undefined;
  return { path, offset, lines, totalLines, lang };
}

/** The envelope of a result that is exactly one text block. */
function singleTextEnvelope(block: ToolCallBlock): ReadEnvelope | undefined {
  const content = block.result?.content ?? [];
  const only = content[0];
  if (content.length !== 1 || only?.block.case !== 'text') return undefined;
  return parseReadEnvelope(only.block.value.text);
}

/** Meta and envelope describe the same lines; an empty slice (`0-0`) has no offset to compare. */
function agrees(meta: CheckedReadMeta, envelope: ReadEnvelope): boolean {
  if (envelope.path !== meta.path || envelope.totalLines !== meta.totalLines) return false;
  if (envelope.lines.length !== meta.lines) return false;
  return meta.lines === 0 || envelope.firstLine === meta.offset;
}

/** A field that is absent (`undefined`), a count, or wrong (`null`). */
function optionalCount(args: JsonObject, key: string): number | undefined | null {
  const value = args[key];
  if (value === undefined) return undefined;
  return isCount(value) ? value : null;
}
