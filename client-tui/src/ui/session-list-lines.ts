import type { SessionRow } from '@dsh/client-live';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';

/**
 * The session list as lines: children indented under parents (lineage), a running dot,
 * the title (or id), the open session in bold and the cursor row inverted.
 */
export function sessionListLines(
  rows: readonly SessionRow[],
  options: { width: number; cursor: number; openId: string | undefined; focused: boolean },
): StyledLine[] {
  return rows.map((row, i) => {
    const summary = row.summary;
    const title = oneLine(summary.title !== '' ? summary.title : summary.id);
    const indent = '  '.repeat(Math.min(row.depth, 4)) + (row.depth > 0 ? '└ ' : '');
    const dot = summary.running
      ? seg('● ', theme.running)
      : summary.error !== ''
        ? seg('! ', theme.error)
        : seg('  ');
    const open = summary.id === options.openId;
    const line = truncateLine(
      [dot, seg(indent, theme.dim), seg(title, open ? theme.bold : undefined)],
      options.width,
    );
    if (i !== options.cursor) return line;
    const cursorStyle = options.focused ? { inverse: true } : { underline: true };
    const padded = [...line, seg(' '.repeat(Math.max(0, options.width - widthOf(line))))];
    return padded.map((segment) => seg(segment.text, { ...segment.style, ...cursorStyle }));
  });
}

function widthOf(line: StyledLine): number {
  let n = 0;
  for (const segment of line) n += [...segment.text].length;
  return n;
}
