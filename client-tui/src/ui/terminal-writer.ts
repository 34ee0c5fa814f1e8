import type { ColorDepth } from '../text/color-depth.js';
import type { TextStyle } from '../text/styled-line.js';
import { sgrParams } from '../text/to-sgr.js';
import type { Cell, Frame } from './frame.js';

/** A space that looks the same as an erased cell (no background, inverse, underline or strike). */
const isBlank = (cell: Cell | undefined) =>
  cell !== undefined &&
  cell.text === ' ' &&
  (cell.style === undefined ||
    (cell.style.bg === undefined &&
      !cell.style.inverse &&
      !cell.style.underline &&
      !cell.style.strike));

/** Writes frames to a terminal, sending only the cells that changed since the last one. */
export interface TerminalWriter {
  draw(frame: Frame): void;
  /** Forgets what the terminal shows (after a resize or a clear): the next draw is whole. */
  invalidate(): void;
}

/**
 * Creates a writer over `write` (the terminal's output). Each draw is one write: the
 * changed span of each row (widened to whole glyphs, so a wide glyph is never written by
 * half) addressed with CUP, styles as SGR, the cursor hidden while drawing and shown at
 * the frame's cursor; a blank row end is erased with EL. No other sequence is written.
 */
export function createTerminalWriter(
  write: (data: string) => void,
  depth: ColorDepth,
): TerminalWriter {
  let shown: Frame | undefined;
  const params = new WeakMap<TextStyle, string>();
  const sgrOf = (style: TextStyle | undefined): string => {
    if (style === undefined) return '';
    let known = params.get(style);
    if (known === undefined) {
      known = sgrParams(style, depth);
      params.set(style, known);
    }
    return known;
  };
  const same = (a: Cell | undefined, b: Cell | undefined) =>
    a !== undefined &&
    b !== undefined &&
    a.text === b.text &&
    a.width === b.width &&
    (a.style === b.style || sgrOf(a.style) === sgrOf(b.style));

  return {
    draw(frame) {
      const whole = shown === undefined || shown.cols !== frame.cols || shown.rows !== frame.rows;
      let out = '';
      for (let y = 0; y < frame.rows; y++) {
        const row = frame.cells[y] as Cell[];
        const old = whole ? undefined : shown?.cells[y];
        let first = 0;
        let last = frame.cols - 1;
        if (old !== undefined) {
          while (first < frame.cols && same(row[first], old[first])) first++;
          if (first === frame.cols) continue;
          while (last > first && same(row[last], old[last])) last--;
          // Widen to whole glyphs, in the new frame and in what the terminal shows.
          while (first > 0 && (row[first]?.width === 0 || old[first]?.width === 0)) first--;
          while (
            last < frame.cols - 1 &&
            (row[last + 1]?.width === 0 || old[last + 1]?.width === 0)
          )
            last++;
        }
        out += `\x1b[${y + 1};${first + 1}H\x1b[0m`;
        // A blank tail is erased (EL) instead of written: fewer bytes, and empty cells.
        let tail = frame.cols;
        while (tail > first && isBlank(row[tail - 1])) tail--;
        const stop = tail <= last ? tail - 1 : last;
        let current = '';
        for (let x = first; x <= stop; x++) {
          const cell = row[x] as Cell;
          if (cell.width === 0) continue;
          const sgr = sgrOf(cell.style);
          if (sgr !== current) {
            out += sgr === '' ? '\x1b[0m' : `\x1b[0;${sgr}m`;
            current = sgr;
          }
          out += cell.text;
        }
        if (current !== '') out += '\x1b[0m';
        if (tail <= last) out += '\x1b[K';
      }
      const cursor = frame.cursor;
      const before = shown?.cursor;
      const moved = cursor?.x !== before?.x || cursor?.y !== before?.y;
      if (out !== '' || moved) {
        const place = cursor === undefined ? '' : `\x1b[${cursor.y + 1};${cursor.x + 1}H\x1b[?25h`;
        write(`\x1b[?25l${out}${place}`);
      }
      shown = frame;
    },
    invalidate() {
      shown = undefined;
    },
  };
}
