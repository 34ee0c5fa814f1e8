import { seg, type StyledLine } from '../text/styled-line.js';
import type { TuiCardRenderer } from './card-renderer.js';
import { previewRowsPerLine, textLines } from './text-lines.js';
import { theme } from './theme.js';

const previewOutputLines = 3;

/**
 * Generic card (every tool, always available): the error line and the first output lines
 * in the conversation; the full arguments and output in details.
 */
export const renderGeneric: TuiCardRenderer = (_block, card, context) => {
  const row = card.row;
  const lines: StyledLine[] = [];
  const width = context.width;
  if (context.mode === 'details') {
    lines.push([seg('Arguments', theme.bold)]);
    lines.push(...textLines(row.argsText === '' ? '(none)' : row.argsText, width, { indent: 2 }));
    if (row.state !== 'running') {
      lines.push([seg('Output', theme.bold)]);
      lines.push(
        ...textLines(row.resultText === '' ? '(empty)' : row.resultText, width, { indent: 2 }),
      );
    }
    if (row.errorText !== '') {
      lines.push(...textLines(`error: ${row.errorText}`, width, { style: theme.error }));
    }
    return lines;
  }
  if (row.errorText !== '') {
    const code = row.errorCode !== '' ? ` (${row.errorCode})` : '';
    lines.push(
      ...textLines(`${row.errorText}${code}`, width, {
        style: theme.error,
        maxLines: 2,
        maxRowsPerLine: previewRowsPerLine,
      }),
    );
  } else if (row.resultText !== '') {
    lines.push(
      ...textLines(row.resultText, width, {
        style: theme.dim,
        maxLines: previewOutputLines,
        maxRowsPerLine: previewRowsPerLine,
      }),
    );
  }
  return lines;
};
