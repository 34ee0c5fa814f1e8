/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
import { textWidth } from '../text/glyphs.js';

/** A key as blessed reports it. */
export interface KeyPress {
  readonly name?: string;
  readonly full?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly sequence?: string;
}

/** The composer as drawn at a width: its visual rows and where the cursor is among them. */
export interface ComposerLayout {
  readonly rows: readonly string[];
  readonly cursor: { readonly row: number; readonly column: number };
}

/** The multi-line draft: text with a cursor, edited key by key or by pasting. */
export interface Composer {
  readonly text: string;
  /** The cursor, as an index into the draft's graphemes. */
  readonly cursor: number;
  set(text: string): void;
  /** Inserts text at the cursor (a paste keeps its newlines; tabs become spaces). */
  insert(text: string): void;
  /** Applies an editing key; false when the key is not an editing key. */
  edit(ch: string | undefined, key: KeyPress): boolean;
  /** The draft wrapped to `width` cells per row. */
  layout(width: number): ComposerLayout;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Text as the draft keeps it: LF line ends, tabs as spaces, no other control characters. */
function clean(text: string): string[] {
  const normalized = text
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/g, '');
  return Array.from(segmenter.segment(normalized), (s) => s.segment);
}

interface Row {
  readonly start: number;
  readonly end: number;
}

/** Visual rows of `chars`: split at newlines, then wrapped at `width` cells. */
function rowsOf(chars: readonly string[], width: number): Row[] {
  const rows: Row[] = [];
  let start = 0;
  let used = 0;
  for (let i = 0; i < chars.length; i++) {
    const ch = chars[i] as string;
    if (ch === '\n') {
      rows.push({ start, end: i });
      start = i + 1;
      used = 0;
      continue;
    }
    const w = textWidth(ch);
    if (used + w > width && i > start) {
      rows.push({ start, end: i });
      start = i;
      used = 0;
    }
    used += w;
  }
  rows.push({ start, end: chars.length });
  return rows;
}

/** The row holding `cursor` (at a wrap point, the row the cursor starts). */
function rowOf(rows: readonly Row[], cursor: number): number {
  for (let r = rows.length - 1; r >= 0; r--) if ((rows[r] as Row).start <= cursor) return r;
  return 0;
}

/** Creates an empty composer with Emacs-style editing keys (C-a, C-e, C-u, C-k, C-w...). */
export function createComposer(): Composer {
  let chars: string[] = [];
  let cursor = 0;
  // The width of the last layout: Up and Down move between the rows the person sees.
  let lastWidth = 80;
  const columnIn = (row: Row, index: number) => textWidth(chars.slice(row.start, index).join(''));
  const indexAt = (row: Row, column: number) => {
    let i = row.start;
    let used = 0;
    while (i < row.end) {
      const w = textWidth(chars[i] as string);
      if (used + w > column) break;
      used += w;
      i++;
    }
    return i;
  };
  const lineStart = () => {
    let i = cursor;
    while (i > 0 && chars[i - 1] !== '\n') i--;
    return i;
  };
  const lineEnd = () => {
    let i = cursor;
    while (i < chars.length && chars[i] !== '\n') i++;
    return i;
  };
  const vertical = (delta: -1 | 1): boolean => {
    const rows = rowsOf(chars, lastWidth);
    const at = rowOf(rows, cursor);
    const target = rows[at + delta];
    if (target === undefined) return false;
    cursor = indexAt(target, columnIn(rows[at] as Row, cursor));
    return true;
  };
  const insert = (text: string) => {
    const typed = clean(text);
    chars.splice(cursor, 0, ...typed);
    cursor += typed.length;
  };

  const edit = (ch: string | undefined, key: KeyPress): boolean => {
    switch (key.full ?? key.name) {
      case 'left':
      case 'C-b':
        cursor = Math.max(0, cursor - 1);
        return true;
      case 'right':
      case 'C-f':
        cursor = Math.min(chars.length, cursor + 1);
        return true;
      case 'up':
        vertical(-1);
        return true;
      case 'down':
        vertical(1);
        return true;
      case 'home':
      case 'C-a':
        cursor = lineStart();
        return true;
      case 'end':
      case 'C-e':
        cursor = lineEnd();
        return true;
      case 'backspace':
        if (cursor > 0) {
          chars.splice(cursor - 1, 1);
          cursor--;
        }
        return true;
      case 'delete':
      case 'C-d':
        chars.splice(cursor, 1);
        return true;
      case 'C-u': {
        const start = lineStart();
        chars.splice(start, cursor - start);
        cursor = start;
        return true;
      }
      case 'C-k': {
        // To the end of the line; at the end of a line, the line break.
        const end = lineEnd();
        chars.splice(cursor, end > cursor ? end - cursor : 1);
        return true;
      }
      case 'C-w': {
        let start = cursor;
        while (start > 0 && chars[start - 1] === ' ') start--;
        while (start > 0 && chars[start - 1] !== ' ' && chars[start - 1] !== '\n') start--;
        chars.splice(start, cursor - start);
        cursor = start;
        return true;
      }
      default:
        break;
    }
    if (key.ctrl || key.meta || ch === undefined) return false;
    if (clean(ch).length === 0) return false;
    insert(ch);
    return true;
  };

  return {
    get text() {
      return chars.join('');
    },
    get cursor() {
      return cursor;
    },
    set(text) {
      chars = clean(text);
      cursor = chars.length;
    },
    insert,
    edit,
    layout(width) {
      lastWidth = Math.max(1, width);
      const rows = rowsOf(chars, lastWidth);
      const at = rowOf(rows, cursor);
      const texts = rows.map((row) => chars.slice(row.start, row.end).join(''));
      const column = columnIn(rows[at] as Row, cursor);
      // A cursor after a full last row starts a row of its own.
      if (column >= lastWidth) return { rows: [...texts, ''], cursor: { row: at + 1, column: 0 } };
      return { rows: texts, cursor: { row: at, column } };
    },
  };
}
