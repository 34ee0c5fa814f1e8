import { theme } from '../cards/theme.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { lineWidth, wrapLine } from '../text/text-width.js';
import { mergeStyle } from './merge-style.js';

/** How a column's cells line up (from the delimiter row: `:--`, `:-:`, `--:`). */
export type CellAlign = 'left' | 'center' | 'right';

/** A parsed table: the header cells, the body rows and each column's alignment. */
export interface TableModel {
  readonly header: readonly StyledLine[];
  readonly rows: readonly (readonly StyledLine[])[];
  readonly aligns: readonly CellAlign[];
}

const separator = ' │ ';
const minColumn = 3;

/** Column widths that fit `width`: natural widths, the widest shrunk first. */
function columnWidths(natural: readonly number[], width: number): number[] | undefined {
  const room = width - separator.length * (natural.length - 1);
  if (room < natural.length * minColumn) return undefined;
  const widths = natural.map((w) => Math.max(1, w));
  let total = widths.reduce((a, b) => a + b, 0);
  while (total > room) {
    let widest = 0;
    for (let i = 1; i < widths.length; i++)
      if ((widths[i] ?? 0) > (widths[widest] ?? 0)) widest = i;
    const current = widths[widest] ?? minColumn;
    if (current <= minColumn) return undefined;
    // Shrink the widest column to the next width (or by what is missing, whichever is less).
    const next = Math.max(minColumn, ...widths.filter((w) => w < current));
    const cut = Math.min(current - next || 1, total - room);
    widths[widest] = current - cut;
    total -= cut;
  }
  return widths;
}

function pad(line: StyledLine, width: number, align: CellAlign): StyledLine {
  const free = Math.max(0, width - lineWidth(line));
  const left = align === 'right' ? free : align === 'center' ? Math.floor(free / 2) : 0;
  return [
    ...(left > 0 ? [seg(' '.repeat(left))] : []),
    ...line,
    ...(free - left > 0 ? [seg(' '.repeat(free - left))] : []),
  ];
}

function rowLines(
  cells: readonly StyledLine[],
  widths: readonly number[],
  aligns: readonly CellAlign[],
): StyledLine[] {
  const wrapped = widths.map((w, i) => wrapLine(cells[i] ?? [], w));
  const height = Math.max(1, ...wrapped.map((rows) => rows.length));
  const out: StyledLine[] = [];
  for (let r = 0; r < height; r++) {
    const line: StyledLine[number][] = [];
    widths.forEach((w, i) => {
      if (i > 0) line.push(seg(separator, theme.tableRule));
      line.push(...pad(wrapped[i]?.[r] ?? [], w, aligns[i] ?? 'left'));
    });
    out.push(line);
  }
  return out;
}

/**
 * A Markdown table drawn with `│` between columns and a rule under the header. Columns
 * keep their natural width when the table fits; otherwise the widest columns shrink and
 * their cells wrap. When even 3 cells a column do not fit, each row becomes a list of
 * `header: value` lines.
 */
export function tableLines(table: TableModel, width: number): StyledLine[] {
  const columns = Math.max(table.header.length, ...table.rows.map((row) => row.length));
  const natural = Array.from({ length: columns }, (_, i) =>
    Math.max(lineWidth(table.header[i] ?? []), ...table.rows.map((row) => lineWidth(row[i] ?? []))),
  );
  const widths = columnWidths(natural, width);
  if (widths === undefined) return listForm(table, width);
  const header = table.header.map((cell) =>
    cell.map((segment) => seg(segment.text, mergeStyle(segment.style, theme.bold))),
  );
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  return [
    ...rowLines(header, widths, table.aligns),
    [seg(rule, theme.tableRule)],
    ...table.rows.flatMap((row) => rowLines(row, widths, table.aligns)),
  ];
}

function listForm(table: TableModel, width: number): StyledLine[] {
  const out: StyledLine[] = [];
  table.rows.forEach((row, r) => {
    if (r > 0) out.push([seg('─'.repeat(Math.min(width, 8)), theme.tableRule)]);
    row.forEach((cell, i) => {
      const name = table.header[i] ?? [];
      const label = name.map((segment) => seg(segment.text, mergeStyle(segment.style, theme.bold)));
      out.push(...wrapLine([...label, seg(': ', theme.bold), ...cell], width, 2));
    });
  });
  return out;
}
