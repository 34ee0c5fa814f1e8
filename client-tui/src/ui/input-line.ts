/* eslint-disable no-control-regex -- this file matches terminal control characters on purpose */
import { charWidth, textWidth } from '../text/text-width.js';

/** A key as blessed reports it. */
export interface KeyPress {
  readonly name?: string;
  readonly full?: string;
  readonly ctrl?: boolean;
  readonly meta?: boolean;
  readonly sequence?: string;
}

/** The compose line: a one-line draft with a cursor, edited key by key. */
export interface InputLine {
  readonly text: string;
  readonly cursor: number;
  set(text: string): void;
  /** Applies an editing key; false when the key is not an editing key. */
  edit(ch: string | undefined, key: KeyPress): boolean;
  /** The part of the draft that fits `width` cells around the cursor, and the cursor column. */
  view(width: number): { text: string; column: number };
}

/** Creates an empty compose line (Emacs-style editing keys: C-a, C-e, C-u, C-w, C-k). */
export function createInputLine(): InputLine {
  let chars: string[] = [];
  let cursor = 0;
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
      case 'home':
      case 'C-a':
        cursor = 0;
        return true;
      case 'end':
      case 'C-e':
        cursor = chars.length;
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
      case 'C-u':
        chars = chars.slice(cursor);
        cursor = 0;
        return true;
      case 'C-k':
        chars = chars.slice(0, cursor);
        return true;
      case 'C-w': {
        let start = cursor;
        while (start > 0 && chars[start - 1] === ' ') start--;
        while (start > 0 && chars[start - 1] !== ' ') start--;
        chars.splice(start, cursor - start);
        cursor = start;
        return true;
      }
      default:
        break;
    }
    if (key.ctrl || key.meta || ch === undefined) return false;
    // Printable text only: a paste may bring newlines (kept as spaces) and controls (dropped).
    const typed = [...ch.replace(/[\r\n\t]/g, ' ').replace(/[\x00-\x1f\x7f-\x9f]/g, '')];
    if (typed.length === 0) return false;
    chars.splice(cursor, 0, ...typed);
    cursor += typed.length;
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
      chars = [...text];
      cursor = chars.length;
    },
    edit,
    view(width) {
      const room = Math.max(1, width - 1);
      let start = 0;
      while (textWidth(chars.slice(start, cursor).join('')) > room) start++;
      let used = 0;
      let end = start;
      while (end < chars.length && used + charWidth(chars[end] as string) <= room + 1) {
        used += charWidth(chars[end] as string);
        end++;
      }
      return {
        text: chars.slice(start, end).join(''),
        column: textWidth(chars.slice(start, cursor).join('')),
      };
    },
  };
}
