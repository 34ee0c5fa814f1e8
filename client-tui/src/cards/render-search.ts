import type { SearchRow } from '@dsh/card-models';
import { sanitizeText } from '../text/sanitize-text.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import type { TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { moreLine, oneLine, previewRowsPerLine, textLines } from './text-lines.js';
import { theme } from './theme.js';

function searchRow(row: SearchRow, numberWidth: number): StyledLine {
  if (row.kind === 'file') return [seg(oneLine(row.displayPath), theme.path)];
  return [
    seg(`  ${String(row.lineNumber).padStart(numberWidth)}: `, theme.lineNumber),
    seg(sanitizeText(row.line)),
  ];
}

/**
 * Search card: the pattern and counts, then grep matches grouped under their file with
 * line numbers, or glob paths; empty results say so; a truncated result shows its hint.
 */
export const renderSearch: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'search') return renderGeneric(block, card, context);
  const where =
    body.searchDisplayPath !== undefined ? ` in ${oneLine(body.searchDisplayPath)}` : '';
  const head: StyledLine = [seg(oneLine(body.pattern), theme.bold), seg(where, theme.dim)];
  if (body.state === 'running') return wrapLine(head, context.width, 2);
  const noun = body.shape === 'matches' ? 'match' : 'path';
  const count =
    body.shape === 'matches'
      ? `${body.total} ${body.total === 1 ? 'match' : 'matches'} in ${body.files.length} ${body.files.length === 1 ? 'file' : 'files'}`
      : `${body.total} ${body.total === 1 ? 'path' : 'paths'}`;
  const lines: StyledLine[] = [
    ...wrapLine([...head, seg(` — ${count}`, theme.dim)], context.width, 2),
  ];
  if (body.shown === 0 && body.rows.length === 0) {
    lines.push([seg(body.shape === 'matches' ? 'no matches' : 'no paths', theme.dim)]);
  }
  const rows = context.mode === 'details' ? body.rows : body.previewRows;
  const rowsPerLine = context.mode === 'details' ? undefined : previewRowsPerLine;
  let maxNumber = 1;
  for (const row of rows) if (row.kind === 'match') maxNumber = Math.max(maxNumber, row.lineNumber);
  const numberWidth = String(maxNumber).length;
  for (const row of rows)
    lines.push(
      ...wrapLine(searchRow(row, numberWidth), context.width, numberWidth + 4, rowsPerLine),
    );
  const hidden = context.mode === 'details' ? 0 : body.hiddenRows;
  if (hidden > 0) lines.push([moreLine(hidden, 'row')]);
  if (body.truncated) {
    const shown = `showing ${body.shown} of ${body.total} ${noun === 'match' ? 'matches' : 'paths'}`;
    lines.push(...textLines(body.hint ?? shown, context.width, { style: theme.notice }));
  }
  return lines;
};
