import { highlightLines, type SettledReadCard } from '@dsh/card-models';
import { sanitizeText } from '../text/sanitize-text.js';
import { seg, type Segment, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import type { TuiCardRenderer } from './card-renderer.js';
import { renderGeneric } from './render-generic.js';
import { moreLine, oneLine, previewRowsPerLine } from './text-lines.js';
import { scopeStyle, theme } from './theme.js';

const highlighted = new WeakMap<SettledReadCard, Segment[][]>();

function tokensOf(card: SettledReadCard): Segment[][] {
  let found = highlighted.get(card);
  if (!found) {
    const tokens = highlightLines(
      card.lines.map((line) => line.text),
      card.lang,
    );
    found = tokens.map((line) =>
      line.map((token) => seg(sanitizeText(token.text), scopeStyle(token.scope))),
    );
    highlighted.set(card, found);
  }
  return found;
}

/**
 * Read card: path and line range, then the shown lines with line numbers and syntax
 * highlighting (highlight.js scopes from card-models), eight in the conversation, all in
 * details.
 */
export const renderRead: TuiCardRenderer = (block, card, context) => {
  const body = card.body;
  if (body.kind !== 'read') return renderGeneric(block, card, context);
  const path = seg(oneLine(body.displayPath), theme.path);
  if (body.state === 'running') {
    const range =
      body.offset !== undefined || body.limit !== undefined
        ? ` from line ${body.offset ?? 1}${body.limit !== undefined ? `, ${body.limit} lines` : ''}`
        : '';
    return wrapLine([path, seg(range, theme.dim)], context.width, 2);
  }
  const last = body.offset + body.lineCount - 1;
  const range =
    body.lineCount > 0
      ? `lines ${body.offset}-${last} of ${body.totalLines}`
      : body.totalLines === 0
        ? 'empty file'
        : `no lines of ${body.totalLines}`;
  const lang = body.lang !== '' ? ` · ${oneLine(body.lang)}` : '';
  const lines: StyledLine[] = [
    ...wrapLine([path, seg(` ${range}${lang}`, theme.dim)], context.width, 2),
  ];
  const shown = context.mode === 'details' ? body.lines : body.previewLines;
  const rowsPerLine = context.mode === 'details' ? undefined : previewRowsPerLine;
  const tokens = tokensOf(body);
  const numberWidth = String(Math.max(1, last)).length;
  shown.forEach((line, i) => {
    const number = seg(`${String(line.number).padStart(numberWidth)} │ `, theme.lineNumber);
    lines.push(
      ...wrapLine([number, ...(tokens[i] ?? [])], context.width, numberWidth + 3, rowsPerLine),
    );
  });
  const hidden = context.mode === 'details' ? 0 : body.hiddenLines;
  if (hidden > 0) lines.push([moreLine(hidden)]);
  return lines;
};
