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
 * Joins buffer rows into logical lines one row at a time, as a terminal's reflow does:
 * a row marked as wrapped continues the line before it (dropping the unwritten cell a
 * wide character left at the end of that row); anything else starts a new line.
 * Trailing blanks of a line are dropped; trailing empty lines are the caller's to drop.
 */
export class RowJoiner {
  private cells: Cell[] = [];
  private rowStart = 0;
  private open = false;

  constructor(
    private readonly cols: number,
    private readonly out: (line: TerminalLine) => void,
  ) {}

  /** Adds the next row of the buffer. */
  row(line: IBufferLine, reuse: IBufferCell): void {
    if (this.open) {
      if (line.isWrapped) {
        const cells = this.cells;
        while (cells.length > this.rowStart && cells[cells.length - 1]?.chars === '') cells.pop();
      } else {
        this.out(toLine(this.cells));
        this.cells = [];
      }
    }
    this.rowStart = this.cells.length;
    rowCells(line, this.cols, this.cells, reuse);
    this.open = true;
  }

  /** Closes the open line. */
  end(): void {
    if (this.open) this.out(toLine(this.cells));
    this.cells = [];
    this.open = false;
  }

  /** A joiner that goes on from this one's state (its open line) without changing it. */
  fork(out: (line: TerminalLine) => void): RowJoiner {
    const fork = new RowJoiner(this.cols, out);
    fork.cells = this.cells.slice();
    fork.rowStart = this.rowStart;
    fork.open = this.open;
    return fork;
  }
}

/**
 * Reads the active buffer of a terminal as logical lines: rows joined across soft
 * wraps, trailing blanks and trailing empty lines dropped, styles as spans.
 */
export function readBufferLines(terminal: Terminal, cols: number): TerminalLine[] {
  const buffer = terminal.buffer.active;
  const reuse = buffer.getNullCell();
  const lines: TerminalLine[] = [];
  const joiner = new RowJoiner(cols, (line) => lines.push(line));
  for (let y = 0; y < buffer.length; y++) {
    const line = buffer.getLine(y);
    if (line) joiner.row(line, reuse);
  }
  joiner.end();
  while (lines.length > 0 && lines[lines.length - 1]?.text === '') lines.pop();
  return lines;
}
