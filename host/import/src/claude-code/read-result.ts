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

/**
 * The read envelope rebuilt from Claude Code's numbered text alone (`     3→line`), for
 * transcripts that keep no `toolUseResult` (2.x sub-agent files): the lines must number
 * on without a gap; what follows them is the note. The file's total length is not known,
 * so it is taken as the last line shown. `undefined` when the text has no numbered lines.
 */
export function readFromText(
  originalText: string,
  path: string | undefined,
): ReadResult | undefined {
  if (path === undefined || path === '') return undefined;
  const rows = originalText.split('\n');
  const lines: string[] = [];
  let firstLine = 0;
  let index = 0;
  for (; index < rows.length; index += 1) {
    const match = /^ *(\d+)(?:→|\t)(.*)$/.exec(rows[index]!);
    if (!match) break;
    const number = Number(match[1]);
    if (lines.length === 0) firstLine = number;
    else if (number !== firstLine + lines.length) return undefined;
    lines.push(match[2] ?? '');
  }
  if (lines.length === 0 || firstLine < 1) return undefined;
  const lastLine = firstLine + lines.length - 1;
  const envelope: ReadEnvelope = { path, firstLine, lastLine, totalLines: lastLine, lines };
  const note = rows.slice(index).join('\n').trim();
  return {
    text: formatReadEnvelope(envelope),
    meta: {
      path,
      offset: firstLine,
      lines: lines.length,
      totalLines: lastLine,
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
