import type { DiffCard, DiffLine } from '@dsh/card-models';
import { highlightedLines } from '../markdown/code-lines.js';
import { mergeStyle } from '../markdown/merge-style.js';
import { seg, type Segment, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import type { TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { moreLine, oneLine, previewRowsPerLine } from './text-lines.js';
import { theme } from './theme.js';

function numberCell(n: number | undefined, width: number): string {
  return (n === undefined ? '' : String(n)).padStart(width);
}

const highlighted = new WeakMap<DiffCard, Map<DiffLine, Segment[]>>();

/**
 * Each row's text highlighted in the file's language: the new side (context and added
 * rows) and the old side (context and removed rows) are highlighted as the code they are.
 */
function rowTokens(card: DiffCard): Map<DiffLine, Segment[]> {
  let found = highlighted.get(card);
  if (found === undefined) {
    found = new Map();
    const newSide = card.lines.filter((row) => row.kind !== 'removed');
    const oldSide = card.lines.filter((row) => row.kind === 'removed');
    for (const side of [newSide, oldSide]) {
      const tokens = highlightedLines(
        side.map((row) => row.text),
        card.lang,
      );
      side.forEach((row, i) => found?.set(row, tokens[i] ?? []));
    }
    highlighted.set(card, found);
  }
  return found;
}

/**
 * Diff card: path and +/- counts, then numbered rows (old and new line numbers, `+`
 * green, `-` red and dim, the text highlighted in the file's language, a separator
 * between hunks): the first rows in the conversation, every row in details.
 */
export const renderDiff: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'diff') return renderGeneric(block, card, context);
  const head: StyledLine = [
    seg(oneLine(body.displayPath), theme.path),
    seg(' '),
    seg(`+${body.added}`, theme.added),
    seg(' '),
    seg(`-${body.removed}`, theme.removed),
    ...(body.created ? [seg(' new file', theme.dim)] : []),
    ...(body.state === 'running' ? [seg(' (intended)', theme.running)] : []),
    ...(!body.lineNumbersInFile ? [seg(' lines counted from the snippet', theme.dim)] : []),
  ];
  const rows = context.mode === 'details' ? body.lines : body.previewLines;
  const rowsPerLine = context.mode === 'details' ? undefined : previewRowsPerLine;
  let maxNumber = 1;
  for (const row of rows) maxNumber = Math.max(maxNumber, row.oldLine ?? 0, row.newLine ?? 0);
  const numberWidth = String(maxNumber).length;
  const gutterWidth = numberWidth * 2 + 4;
  const tokens = rowTokens(body);
  const lines: StyledLine[] = [...wrapLine(head, context.width, 2)];
  let hunk: number | undefined;
  for (const row of rows) {
    if (hunk !== undefined && row.hunk !== hunk) lines.push([seg('  ⋯', theme.hunkSeparator)]);
    hunk = row.hunk;
    const text = tokens.get(row) ?? [];
    lines.push(
      ...wrapLine(diffRow(row, text, numberWidth), context.width, gutterWidth, rowsPerLine),
    );
  }
  const hidden = context.mode === 'details' ? 0 : body.hiddenLines;
  if (hidden > 0) lines.push([moreLine(hidden)]);
  return lines;
};

function diffRow(row: DiffLine, text: readonly Segment[], numberWidth: number): StyledLine {
  const sign = row.kind === 'added' ? '+' : row.kind === 'removed' ? '-' : ' ';
  const style =
    row.kind === 'added' ? theme.added : row.kind === 'removed' ? theme.removed : undefined;
  const numbers = `${numberCell(row.oldLine, numberWidth)} ${numberCell(row.newLine, numberWidth)} `;
  const body =
    row.kind === 'removed'
      ? text.map((segment) => seg(segment.text, mergeStyle(segment.style, theme.dim)))
      : text;
  return [
    seg(numbers, style === undefined ? theme.lineNumber : mergeStyle(theme.lineNumber, style)),
    seg(`${sign} `, style === undefined ? undefined : mergeStyle(style, theme.bold)),
    ...body,
  ];
}
