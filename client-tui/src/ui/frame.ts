import { glyphsOf, type Glyph } from '../text/glyphs.js';
import type { Segment, StyledLine, TextStyle } from '../text/styled-line.js';

/**
 * One terminal cell: the glyph that starts in it (`width` 1 or 2), or the right half of a
 * wide glyph (`width` 0, empty text).
 */
export interface Cell {
  readonly text: string;
  readonly width: 0 | 1 | 2;
  readonly style: TextStyle | undefined;
}

/** A whole screen as cells, composed by the client and written by `createTerminalWriter`. */
export interface Frame {
  readonly cols: number;
  readonly rows: number;
  readonly cells: Cell[][];
  /** Where the terminal cursor shows (the composer's cursor), or hidden when undefined. */
  cursor: { readonly x: number; readonly y: number } | undefined;
}

const blank: Cell = { text: ' ', width: 1, style: undefined };

// Conversation lines are memoised, so the same segments are drawn frame after frame: their
// glyphs are kept with them instead of being segmented again at every draw.
const glyphCache = new WeakMap<Segment, readonly Glyph[]>();
function glyphsOfSegment(segment: Segment): readonly Glyph[] {
  let glyphs = glyphCache.get(segment);
  if (glyphs === undefined) {
    glyphs = glyphsOf(segment.text);
    glyphCache.set(segment, glyphs);
  }
  return glyphs;
}

/** A blank frame of `cols` x `rows`. */
export function createFrame(cols: number, rows: number): Frame {
  const width = Math.max(0, cols);
  const cells = Array.from({ length: Math.max(0, rows) }, () =>
    Array.from({ length: width }, () => blank),
  );
  return { cols: width, rows: cells.length, cells, cursor: undefined };
}

/** Clears the cells at `x` so a glyph can start there without leaving half of another. */
function release(row: Cell[], x: number): void {
  const cell = row[x];
  if (cell?.width === 0 && x > 0) row[x - 1] = blank;
  if (cell?.width === 2 && row[x + 1]?.width === 0) row[x + 1] = blank;
}

/**
 * Draws `line` into row `y` from column `x`, clipped to `width` cells; the rest of the
 * region is blank (in `fill`, when given). A wide glyph that would cross the region's right
 * edge becomes a blank, so nothing spills into the next region.
 */
export function putLine(
  frame: Frame,
  x: number,
  y: number,
  width: number,
  line: StyledLine,
  fill?: TextStyle,
): void {
  const row = frame.cells[y];
  if (row === undefined) return;
  const start = Math.max(0, x);
  const end = Math.min(frame.cols, x + width);
  if (end <= start) return;
  let at = start;
  const place = (cell: Cell) => {
    release(row, at);
    row[at] = cell;
    at++;
  };
  for (const segment of line) {
    for (const glyph of glyphsOfSegment(segment)) {
      if (at >= end) break;
      if (glyph.width === 2 && at + 1 >= end) {
        place({ text: ' ', width: 1, style: segment.style });
        continue;
      }
      place({ text: glyph.text, width: glyph.width, style: segment.style });
      if (glyph.width === 2) {
        release(row, at);
        row[at] = { text: '', width: 0, style: segment.style };
        at++;
      }
    }
    if (at >= end) break;
  }
  const filler: Cell = fill === undefined ? blank : { text: ' ', width: 1, style: fill };
  while (at < end) place(filler);
  // A wide glyph of another region whose right half was just overwritten is cut too.
  if (row[end]?.width === 0) row[end] = blank;
}

/** Draws `lines` into the rectangle at `x`, `y` of `width` x `height`; missing rows are blank. */
export function putLines(
  frame: Frame,
  x: number,
  y: number,
  width: number,
  height: number,
  lines: readonly StyledLine[],
  fill?: TextStyle,
): void {
  for (let i = 0; i < height; i++) putLine(frame, x, y + i, width, lines[i] ?? [], fill);
}

/** The text of a frame row (wide glyphs once), for tests and debugging. */
export function frameRowText(frame: Frame, y: number): string {
  return (frame.cells[y] ?? []).map((cell) => cell.text).join('');
}
