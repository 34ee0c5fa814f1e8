import type { IMarker, Terminal } from '@xterm/headless';
import { ScreenSplitter, type ScreenBreak, type ScreenPiece } from './screen-breaks.js';
import { RowJoiner } from './terminal-buffer.js';
import {
  createTerminal,
  plainLines,
  replayGeometry,
  resetTerminal,
  writeSync,
} from './terminal-emulator.js';
import {
  breakLine,
  renderTerminalOutput,
  type TerminalLine,
  type TerminalPreview,
  type TerminalRenderOptions,
} from './terminal-output.js';

/**
 * Characters written to the emulator between two harvests. Each character adds at most
 * one row, so a scrollback of as many rows keeps every row not yet read.
 */
const pieceChars = 256;

/**
 * One stretch of live output between screen breaks, replayed on its own emulator. Rows
 * that scroll above the screen can no longer change: after every piece they are read
 * once into logical lines and the emulator may drop them, so each character is parsed
 * once and read once, and only the screen (`rows` rows) is read again for a view.
 */
class LiveSegment {
  /** Complete logical lines read from rows above the screen, in order. */
  readonly lines: TerminalLine[] = [];
  private lastText = -1;
  private readonly joiner: RowJoiner;
  private marker: IMarker | undefined;

  constructor(
    private readonly terminal: Terminal,
    private readonly cols: number,
  ) {
    this.joiner = new RowJoiner(cols, (line) => {
      this.lines.push(line);
      if (line.text !== '') this.lastText = this.lines.length - 1;
    });
  }

  write(text: string): void {
    for (let at = 0; at < text.length;) {
      let end = Math.min(text.length, at + pieceChars);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end++;
      if (!writeSync(this.terminal, text.slice(at, end))) throw new Error('no synchronous write');
      this.harvest();
      at = end;
    }
  }

  /** The segment's lines now: `count` read lines, then the screen's, trailing empties dropped. */
  view(): { count: number; screen: TerminalLine[] } {
    const buffer = this.terminal.buffer.active;
    const reuse = buffer.getNullCell();
    const screen: TerminalLine[] = [];
    const fork = this.joiner.fork((line) => screen.push(line));
    for (let y = buffer.baseY; y < buffer.length; y++) {
      const line = buffer.getLine(y);
      if (line) fork.row(line, reuse);
    }
    fork.end();
    let end = screen.length;
    while (end > 0 && screen[end - 1]?.text === '') end--;
    if (end > 0) return { count: this.lines.length, screen: screen.slice(0, end) };
    return { count: this.lastText + 1, screen: [] };
  }

  /** Lets the emulator forget this segment's rows. */
  close(): void {
    this.marker?.dispose();
    this.marker = undefined;
  }

  /** Reads the rows that scrolled above the screen since the last harvest. */
  private harvest(): void {
    const buffer = this.terminal.buffer.active;
    const start = this.marker?.line ?? 0;
    if (this.marker?.isDisposed === true || start < 0) throw new Error('rows were dropped unread');
    const end = buffer.baseY;
    if (this.marker !== undefined && end === start) return;
    const reuse = buffer.getNullCell();
    for (let y = start; y < end; y++) {
      const line = buffer.getLine(y);
      if (line) this.joiner.row(line, reuse);
    }
    this.marker?.dispose();
    // A marker follows its row as the emulator drops rows from the top.
    this.marker = this.terminal.registerMarker(end - (buffer.baseY + buffer.cursorY));
    if (this.marker === undefined) throw new Error('no marker on this buffer');
  }
}

/**
 * Live terminal output replayed incrementally, with exactly the rules of
 * `renderTerminalOutput` (the same emulator settings, screen breaks and break lines): the
 * lines after any sequence of writes equal `renderTerminalOutput` of their concatenation,
 * however the text was cut. Writing N bytes costs O(N) in total; a view costs O(screen)
 * plus the lines it returns. Never throws: a failure falls back to the plain replay.
 */
export class LiveTerminal {
  private readonly splitter = new ScreenSplitter();
  private readonly cols: number;
  private readonly rows: number;
  private readonly terminal: Terminal | undefined;
  /** Lines of the finished segments, with their break lines. */
  private readonly done: TerminalLine[] = [];
  /** The break before the current segment, shown once lines exist on both sides. */
  private pending: ScreenBreak | undefined;
  private pendingLine: TerminalLine | undefined;
  private segment: LiveSegment | undefined;
  /** Everything written, for the fallback when the emulator fails. */
  private readonly written: string[] = [];
  private failed = false;
  private view: { count: number; screen: TerminalLine[] } | undefined;
  private readonly take = (piece: ScreenPiece): void => this.piece(piece);

  constructor(options: TerminalRenderOptions = {}) {
    const { cols, rows } = replayGeometry(options);
    this.cols = cols;
    this.rows = rows;
    this.terminal = createTerminal({ cols, rows, scrollback: pieceChars });
    if (this.terminal === undefined || !writeSync(this.terminal, '')) this.failed = true;
    else this.segment = new LiveSegment(this.terminal, cols);
  }

  /** Adds output. */
  write(text: string): void {
    if (text === '') return;
    this.written.push(text);
    this.view = undefined;
    if (this.failed) return;
    try {
      this.splitter.push(text, this.take);
    } catch {
      this.fail();
    }
  }

  /** Every line so far (a new array; the lines above the screen keep their identity). */
  lines(): TerminalLine[] {
    if (this.failed) return this.fallback();
    const out: TerminalLine[] = [];
    const total = this.count();
    for (let i = 0; i < total; i++) out.push(this.line(i));
    return out;
  }

  /** How many lines `lines()` would return, in O(screen). */
  count(): number {
    if (this.failed) return this.fallback().length;
    const { count, screen } = this.current();
    return this.done.length + (this.breakShown() ? 1 : 0) + count + screen.length;
  }

  /** The first `head` and last `tail` lines and the number between, in O(screen + head + tail). */
  preview(limit: { readonly head: number; readonly tail: number }): TerminalPreview {
    const head = Math.max(0, Math.floor(limit.head));
    const tail = Math.max(0, Math.floor(limit.tail));
    if (this.failed) {
      const lines = this.fallback();
      return previewOf(lines.length, head, tail, (i) => lines[i] as TerminalLine);
    }
    return previewOf(this.count(), head, tail, (i) => this.line(i));
  }

  /** Releases the emulator; later writes and views use the plain replay. */
  dispose(): void {
    this.fail();
  }

  private piece(piece: ScreenPiece): void {
    if (piece.screenBreak === undefined) {
      this.segment?.write(piece.text);
      return;
    }
    const { count, screen } = this.current();
    const lines = [...(this.segment?.lines.slice(0, count) ?? []), ...screen];
    if (lines.length > 0) {
      if (this.breakShown()) this.done.push(this.breakLine());
      this.pending = undefined;
      for (const line of lines) this.done.push(line);
    }
    this.pending = piece.screenBreak;
    this.pendingLine = undefined;
    this.view = undefined;
    // A fresh screen for the next segment, as `renderTerminalOutput` replays each one.
    this.segment?.close();
    if (this.terminal !== undefined) resetTerminal(this.terminal);
    if (this.terminal !== undefined) this.segment = new LiveSegment(this.terminal, this.cols);
  }

  private current(): { count: number; screen: TerminalLine[] } {
    this.view ??= this.segment?.view() ?? { count: 0, screen: [] };
    return this.view;
  }

  private breakShown(): boolean {
    return this.pending !== undefined && this.done.length > 0;
  }

  private breakLine(): TerminalLine {
    this.pendingLine ??= breakLine(this.pending ?? 'clear');
    return this.pendingLine;
  }

  private line(i: number): TerminalLine {
    if (i < this.done.length) return this.done[i] as TerminalLine;
    let at = i - this.done.length;
    if (this.breakShown()) {
      if (at === 0) return this.breakLine();
      at--;
    }
    const { count, screen } = this.current();
    if (at < count) return this.segment?.lines[at] as TerminalLine;
    return screen[at - count] as TerminalLine;
  }

  private fail(): void {
    this.failed = true;
    this.segment = undefined;
    try {
      this.terminal?.dispose();
    } catch {
      // already unusable
    }
  }

  private fallback(): TerminalLine[] {
    const body = this.written.join('');
    try {
      return renderTerminalOutput(body, { cols: this.cols, rows: this.rows });
    } catch {
      return plainLines(body);
    }
  }
}

function previewOf(
  total: number,
  head: number,
  tail: number,
  line: (i: number) => TerminalLine,
): TerminalPreview {
  const range = (from: number, to: number): TerminalLine[] => {
    const out: TerminalLine[] = [];
    for (let i = from; i < to; i++) out.push(line(i));
    return out;
  };
  if (total <= head + tail) return { head: range(0, total), hidden: 0, tail: [] };
  return { head: range(0, head), hidden: total - head - tail, tail: range(total - tail, total) };
}
