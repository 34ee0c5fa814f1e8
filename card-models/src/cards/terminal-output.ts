import type { Terminal } from '@xterm/headless';
import { splitScreens, type ScreenBreak } from './screen-breaks.js';
import { readBufferLines } from './terminal-buffer.js';
import {
  createTerminal,
  defaultTerminalCols,
  plainLines,
  replayGeometry,
  resetTerminal,
  writeSync,
} from './terminal-emulator.js';

/** A colour: a palette index (0-255) or a `#rrggbb` true colour. */
export type TerminalColor = number | string;

/** A styled run of a line, from `start` to `end` (UTF-16 indexes into `text`). */
export interface TerminalSpan {
  readonly start: number;
  readonly end: number;
  readonly fg?: TerminalColor;
  readonly bg?: TerminalColor;
  readonly bold?: boolean;
  readonly italic?: boolean;
  readonly underline?: boolean;
  readonly dim?: boolean;
  readonly inverse?: boolean;
}

/** One logical output line after replay: its text and the styled runs (default style omitted). */
export interface TerminalLine {
  readonly text: string;
  readonly spans: readonly TerminalSpan[];
  /**
   * Set on the dim marker line that stands where the output cleared, reset or switched
   * the screen: what came before stays above it (see `splitScreens`).
   */
  readonly screenBreak?: ScreenBreak;
}

/** Terminal geometry for the replay; `cols` decides where long lines wrap while replaying. */
export interface TerminalRenderOptions {
  readonly cols?: number;
  readonly rows?: number;
}

export { defaultTerminalCols };
const maxScrollback = 100_000;

let shared: Terminal | undefined;

/**
 * The one emulator every replay reuses: construction costs milliseconds, a reset costs
 * far less. Replays are synchronous, so two of them never share it at once.
 */
function emulator(): Terminal | undefined {
  shared ??= createTerminal({ cols: defaultTerminalCols, rows: 24, scrollback: 0 });
  return shared;
}

const breakLabels: Readonly<Record<ScreenBreak, string>> = {
  clear: 'screen cleared',
  reset: 'terminal reset',
  'alternate-screen': 'alternate screen',
  'main-screen': 'back to the main screen',
};

/** The dim marker line shown where output broke the screen. */
export function breakLine(kind: ScreenBreak): TerminalLine {
  const text = `── ${breakLabels[kind]} ──`;
  return { text, spans: [{ start: 0, end: text.length, dim: true }], screenBreak: kind };
}

/**
 * Replays shell output through a real terminal emulator (xterm.js headless with
 * Unicode 11 widths) and returns its logical lines with colours and styles. Carriage
 * returns and cursor movement act as in a terminal (a progress bar ends in its final
 * state); titles, clipboard, hyperlink and other control sequences have no effect
 * outside the returned lines. A screen clear, a reset or an alternate-screen switch
 * does not erase what came before: each stretch between them is replayed on its own
 * and a marker line (`screenBreak`) stands between them, so the card keeps everything
 * the model saw. Synchronous and total: never throws.
 */
export function renderTerminalOutput(
  body: string,
  options: TerminalRenderOptions = {},
): TerminalLine[] {
  if (body === '') return [];
  const segments = splitScreens(body);
  if (segments.length === 1) return replay(body, options);
  const lines: TerminalLine[] = [];
  let pending: ScreenBreak | undefined;
  for (const segment of segments) {
    pending = segment.after ?? pending;
    const replayed = replay(segment.text, options);
    if (replayed.length === 0) continue;
    if (pending !== undefined && lines.length > 0) lines.push(breakLine(pending));
    pending = undefined;
    for (const line of replayed) lines.push(line);
  }
  if (pending !== undefined && lines.length > 0) lines.push(breakLine(pending));
  return lines;
}

/** One replay on a fresh screen. */
function replay(body: string, options: TerminalRenderOptions): TerminalLine[] {
  if (body === '') return [];
  const { cols, rows } = replayGeometry(options);
  const terminal = emulator();
  if (!terminal) return plainLines(body);
  let newlines = 0;
  for (let i = body.indexOf('\n'); i >= 0; i = body.indexOf('\n', i + 1)) newlines++;
  try {
    resetTerminal(terminal);
    terminal.options.scrollback = Math.min(
      maxScrollback,
      newlines + Math.ceil(body.length / cols) + rows,
    );
    terminal.resize(cols, rows);
    if (!writeSync(terminal, body)) return plainLines(body);
    return readBufferLines(terminal, cols);
  } catch {
    return plainLines(body);
  } finally {
    try {
      resetTerminal(terminal);
      terminal.options.scrollback = 0;
    } catch {
      shared = undefined;
    }
  }
}

/** Lines a terminal card shows in the conversation: the first `head` and the last `tail`. */
export const terminalPreview = { head: 3, tail: 5 } as const;

/** A conversation preview of terminal lines: head, the count left out, tail. */
export interface TerminalPreview {
  readonly head: readonly TerminalLine[];
  readonly hidden: number;
  readonly tail: readonly TerminalLine[];
}

/**
 * Limits lines for the conversation: all of them when they fit in `head + tail`,
 * otherwise the first `head`, the number hidden, and the last `tail`. Details show all.
 */
export function limitTerminalLines(
  lines: readonly TerminalLine[],
  limit: { readonly head: number; readonly tail: number } = terminalPreview,
): TerminalPreview {
  const head = Math.max(0, Math.floor(limit.head));
  const tail = Math.max(0, Math.floor(limit.tail));
  if (lines.length <= head + tail) return { head: lines, hidden: 0, tail: [] };
  return {
    head: lines.slice(0, head),
    hidden: lines.length - head - tail,
    tail: tail === 0 ? [] : lines.slice(lines.length - tail),
  };
}
