import { sanitizeText } from '../text/sanitize-text.js';
import { seg, type StyledLine, type TextStyle } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import { theme } from './theme.js';

/**
 * Untrusted text as wrapped lines: sanitized, split on newlines, each line wrapped to
 * `width` after a `prefix` of blank cells. `maxLines` keeps the first lines and says how
 * many were left out.
 */
export function textLines(
  text: string,
  width: number,
  options: { style?: TextStyle; indent?: number; maxLines?: number; maxRowsPerLine?: number } = {},
): StyledLine[] {
  const indent = options.indent ?? 0;
  const pad = indent > 0 ? [seg(' '.repeat(indent))] : [];
  let logical = sanitizeText(text).replace(/\n+$/, '').split('\n');
  let hidden = 0;
  if (options.maxLines !== undefined && logical.length > options.maxLines) {
    hidden = logical.length - options.maxLines;
    logical = logical.slice(0, options.maxLines);
  }
  const out: StyledLine[] = [];
  for (const line of logical) {
    const rows = wrapLine([seg(line, options.style)], width - indent, 0, options.maxRowsPerLine);
    for (const row of rows) out.push([...pad, ...row]);
  }
  if (hidden > 0) out.push([...pad, moreLine(hidden)]);
  return out;
}

/** The dim `… N more lines` marker of a shortened preview. */
export function moreLine(hidden: number, what = 'line'): ReturnType<typeof seg> {
  return seg(`… ${hidden} more ${what}${hidden === 1 ? '' : 's'} (Enter: details)`, theme.dim);
}

/** Rows one logical line may take in a conversation preview; details show everything. */
export const previewRowsPerLine = 3;

/** Wraps prepared lines to `width`, continuation rows indented by `indent` cells. */
export function wrapAll(
  lines: readonly StyledLine[],
  width: number,
  indent = 0,
  maxRowsPerLine?: number,
): StyledLine[] {
  return lines.flatMap((line) => wrapLine(line, width, indent, maxRowsPerLine));
}

/** Sanitized single-line text (newlines become spaces) for titles and labels. */
export function oneLine(text: string): string {
  return sanitizeText(text).replace(/\n/g, ' ');
}
