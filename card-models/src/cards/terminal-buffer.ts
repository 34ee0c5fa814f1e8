import type { IBufferCell, IBufferLine, Terminal } from '@xterm/headless';
import type { TerminalLine, TerminalSpan } from './terminal-output.js';

type Style = Omit<TerminalSpan, 'start' | 'end'>;

/** xterm's SGR 4 flag in a cell's `fg` word (`FgFlags.UNDERLINE`). */
const underlineFlag = 0x10000000;

/**
 * Underline set by the program. xterm also reports OSC 8 hyperlink cells as underlined;
 * cards drop links, so a linked cell counts only when SGR 4 underlined it as well.
 */
function isUnderlined(cell: IBufferCell): boolean {
  if (!cell.isUnderline()) return false;
  const internal = cell as unknown as { fg?: unknown; extended?: { urlId?: unknown } };
  if (!internal.extended?.urlId || typeof internal.fg !== 'number') return true;
  return (internal.fg & underlineFlag) !== 0;
}

function hex(rgb: number): string {
  return `#${rgb.toString(16).padStart(6, '0')}`;
}

/** The cell's style, or `undefined` for the default style. */
function styleOf(cell: IBufferCell): Style | undefined {
  let style: { -readonly [K in keyof Style]: Style[K] } | undefined;
  const set = <K extends keyof Style>(key: K, value: Style[K]): void => {
    style ??= {};
    style[key] = value;
  };
  if (cell.isFgPalette()) set('fg', cell.getFgColor());
  else if (cell.isFgRGB()) set('fg', hex(cell.getFgColor()));
  if (cell.isBgPalette()) set('bg', cell.getBgColor());
  else if (cell.isBgRGB()) set('bg', hex(cell.getBgColor()));
  if (cell.isBold()) set('bold', true);
  if (cell.isItalic()) set('italic', true);
  if (isUnderlined(cell)) set('underline', true);
  if (cell.isDim()) set('dim', true);
  if (cell.isInverse()) set('inverse', true);
  return style;
}

/** A cheap identity of a cell's attributes: cells with equal keys have equal styles. */
function attributeKey(cell: IBufferCell): string {
  if (cell.isAttributeDefault()) return '';
  const flags = [
    cell.isBold(),
    cell.isItalic(),
    isUnderlined(cell) ? 1 : 0,
    cell.isDim(),
    cell.isInverse(),
  ].join('');
  return `${cell.getFgColorMode()}:${cell.getFgColor()}:${cell.getBgColorMode()}:${cell.getBgColor()}:${flags}`;
}

interface Cell {
  readonly chars: string;
  readonly key: string;
  readonly style: Style | undefined;
}

/** Cells a row holds up to its last written cell (xterm's `BufferLine.getTrimmedLength`). */
function writtenLength(line: IBufferLine, cols: number): number {
  const internal = (line as unknown as { _line?: { getTrimmedLength?: () => number } })._line;
  const length = internal?.getTrimmedLength?.();
  return typeof length === 'number' ? Math.min(cols, length) : cols;
}

function rowCells(line: IBufferLine, cols: number, into: Cell[], reuse: IBufferCell): void {
  const length = writtenLength(line, cols);
  let last: Cell | undefined;
  for (let x = 0; x < length; x++) {
    const cell = line.getCell(x, reuse);
    if (!cell || cell.getWidth() === 0) continue;
    const key = attributeKey(cell);
    const style = last?.key === key ? last.style : key === '' ? undefined : styleOf(cell);
    last = { chars: cell.getChars(), key, style };
    into.push(last);
  }
}

function isBlank(cell: Cell | undefined): boolean {
  if (!cell) return false;
  return cell.chars === '' || (cell.chars === ' ' && !cell.style?.bg && !cell.style?.inverse);
}

function toLine(cells: readonly Cell[]): TerminalLine {
  // Unwritten cells and default-styled blanks at the end are not output.
  let end = cells.length;
  while (end > 0 && isBlank(cells[end - 1])) end--;
  const parts: string[] = [];
  const spans: TerminalSpan[] = [];
  let length = 0;
  let open: { start: number; key: string; style: Style } | undefined;
  for (let i = 0; i < end; i++) {
    const cell = cells[i] as Cell;
    if (open && open.key !== cell.key) {
      spans.push({ start: open.start, end: length, ...open.style });
      open = undefined;
    }
    if (!open && cell.style) open = { start: length, key: cell.key, style: cell.style };
    const chars = cell.chars === '' ? ' ' : cell.chars;
    parts.push(chars);
    length += chars.length;
  }
  if (open) spans.push({ start: open.start, end: length, ...open.style });
  return { text: parts.join(''), spans };
}

/**
 * Reads the active buffer of a terminal as logical lines: rows joined across soft
 * wraps, trailing blanks and trailing empty lines dropped, styles as spans.
 */
export function readBufferLines(terminal: Terminal, cols: number): TerminalLine[] {
  const buffer = terminal.buffer.active;
  const reuse = buffer.getNullCell();
  const lines: TerminalLine[] = [];
  let cells: Cell[] = [];
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (!line) continue;
    const start = cells.length;
    rowCells(line, cols, cells, reuse);
    if (buffer.getLine(y + 1)?.isWrapped) {
      // A wide character that did not fit leaves an unwritten cell before the wrap.
      while (cells.length > start && cells[cells.length - 1]?.chars === '') cells.pop();
      continue;
    }
    lines.push(toLine(cells));
    cells = [];
  }
  while (lines.length > 0 && lines[lines.length - 1]?.text === '') lines.pop();
  return lines;
}
