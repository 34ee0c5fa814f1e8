import { glyphsOf, textWidth } from './glyphs.js';
import type { Segment, StyledLine, TextStyle } from './styled-line.js';

export { textWidth };

/** Cells a styled line takes. */
export function lineWidth(line: StyledLine): number {
  let width = 0;
  for (const segment of line) width += textWidth(segment.text);
  return width;
}

interface Cell {
  readonly ch: string;
  readonly width: number;
  readonly style: TextStyle | undefined;
}

function cellsOf(line: StyledLine): Cell[] {
  const cells: Cell[] = [];
  for (const segment of line) {
    for (const glyph of glyphsOf(segment.text)) {
      cells.push({ ch: glyph.text, width: glyph.width, style: segment.style });
    }
  }
  return cells;
}

function segmentsOf(cells: readonly Cell[]): Segment[] {
  const out: Segment[] = [];
  let text = '';
  let style: TextStyle | undefined;
  for (const cell of cells) {
    if (text !== '' && cell.style !== style) {
      out.push(style === undefined ? { text } : { text, style });
      text = '';
    }
    style = cell.style;
    text += cell.ch;
  }
  if (text !== '') out.push(style === undefined ? { text } : { text, style });
  return out;
}

/**
 * Wraps a line to `width` cells, breaking after the last space of a row when there is one
 * in its second half, else inside the word; `indent` cells of blank start every
 * continuation row. Wide characters never straddle a row end. With `maxRows`, a line that
 * needs more rows ends its last row with `…` (conversation previews of huge lines).
 */
export function wrapLine(
  line: StyledLine,
  width: number,
  indent = 0,
  maxRows = Number.POSITIVE_INFINITY,
): StyledLine[] {
  const max = Math.max(1, width);
  const cells = cellsOf(line);
  let total = 0;
  for (const cell of cells) total += cell.width;
  if (total <= max) return [line];
  const pad = Math.min(indent, Math.floor(max / 2));
  const rows: StyledLine[] = [];
  let start = 0;
  let first = true;
  while (start < cells.length) {
    const room = first ? max : max - pad;
    let used = 0;
    let end = start;
    let lastSpace = -1;
    while (end < cells.length && used + (cells[end] as Cell).width <= room) {
      const cell = cells[end] as Cell;
      if (cell.ch === ' ') lastSpace = end;
      used += cell.width;
      end++;
    }
    if (end === start) end = start + 1; // a cell wider than the row: emit it alone
    let next = end;
    if (end < cells.length && lastSpace > start + Math.floor(room / 2)) {
      end = lastSpace;
      next = lastSpace + 1;
    }
    // A row never starts with the space its predecessor broke at.
    while (next < cells.length && next > start && (cells[next] as Cell).ch === ' ') next++;
    const row = segmentsOf(cells.slice(start, end));
    rows.push(first || pad === 0 ? row : [{ text: ' '.repeat(pad) }, ...row]);
    first = false;
    start = next;
    if (rows.length >= maxRows && start < cells.length) {
      const last = rows.pop() ?? [];
      rows.push(truncateLine([...last, { text: ' …' }], max));
      break;
    }
  }
  return rows;
}

/** Cuts a line to `width` cells, ending with `…` when something was cut. */
export function truncateLine(line: StyledLine, width: number): StyledLine {
  const cells = cellsOf(line);
  let total = 0;
  for (const cell of cells) total += cell.width;
  if (total <= width) return line;
  const kept: Cell[] = [];
  let used = 0;
  for (const cell of cells) {
    if (used + cell.width > width - 1) break;
    kept.push(cell);
    used += cell.width;
  }
  const style = kept.length > 0 ? kept[kept.length - 1]?.style : undefined;
  kept.push({ ch: '…', width: 1, style });
  return segmentsOf(kept);
}
