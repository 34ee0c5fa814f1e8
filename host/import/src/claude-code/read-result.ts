import { formatReadEnvelope, type ReadEnvelope, type ReadMeta } from '@dsh/card-models/contract';
import { langFromPath } from '@dsh/tools';
import { isRecord, numberOf, stringOf } from '../json-fields.js';

/** A `read` result in dsh form: the envelope text and its meta. */
export interface ReadResult {
  readonly text: string;
  readonly meta: ReadMeta & { note?: string };
}

const numberedLine = /^ *\d+(?:→|\t)/;

/**
 * Rewrites a Claude Code `Read` text result into the dsh read envelope with its meta,
 * from `toolUseResult.file` (path, content, startLine, numLines, totalLines). Text the
 * tool appended after the numbered lines (a system reminder) is kept in `meta.note`.
 * `undefined` when the transcript lacks the facts (image reads, older versions).
 */
export function readResult(originalText: string, toolUseResult: unknown): ReadResult | undefined {
  if (!isRecord(toolUseResult) || toolUseResult.type !== 'text') return undefined;
  const file = isRecord(toolUseResult.file) ? toolUseResult.file : undefined;
  const path = stringOf(file, 'filePath');
  const content = stringOf(file, 'content');
  const startLine = numberOf(file, 'startLine') ?? 1;
  if (path === undefined || path === '' || content === undefined) return undefined;
  const lines = content === '' ? [] : content.split('\n');
  const numLines = numberOf(file, 'numLines');
  if (lines.length === (numLines ?? -1) + 1 && lines.at(-1) === '') lines.pop();
  const firstLine = lines.length === 0 ? 0 : Math.max(1, Math.trunc(startLine));
  const lastLine = lines.length === 0 ? 0 : firstLine + lines.length - 1;
  const totalLines = Math.max(Math.trunc(numberOf(file, 'totalLines') ?? 0), lastLine);
  const envelope: ReadEnvelope = { path, firstLine, lastLine, totalLines, lines };
  const note = trailingNote(originalText);
  return {
    text: formatReadEnvelope(envelope),
    meta: {
      path,
      offset: firstLine,
      lines: lines.length,
      totalLines,
      lang: langFromPath(path),
      ...(note === '' ? {} : { note }),
    },
  };
}

/** The text after the last numbered line of Claude Code's `cat -n` style output. */
function trailingNote(text: string): string {
  const rows = text.split('\n');
  let last = -1;
  rows.forEach((row, i) => {
    if (numberedLine.test(row)) last = i;
  });
  return last === -1
    ? ''
    : rows
        .slice(last + 1)
        .join('\n')
        .trim();
}
