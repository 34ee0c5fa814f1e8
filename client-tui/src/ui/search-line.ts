import type { Key, KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

// One character that is not a control character.
// eslint-disable-next-line no-control-regex -- control characters are what it excludes
const printable = /^[^\x00-\x1f\x7f-\x9f]$/u;

/** The query line of the open session's search, and whether it is still being typed. */
export interface SearchLine {
  query: string;
  editing: boolean;
}

/** What a key did to the query line: closed it, asked to run it, or edited it. */
export type SearchLineStep = 'cancel' | 'submit' | 'edit';

/**
 * Applies one key to the query line: Esc or C-g cancel, Enter submits, Backspace and C-u
 * delete, a printable character is typed; every other key is swallowed, so nothing
 * typed into the query acts elsewhere.
 */
export function editSearchLine(line: SearchLine, ch: string | undefined, key: Key): SearchLineStep {
  switch (key.full) {
    case 'escape':
    case 'C-g':
      return 'cancel';
    case 'return':
    case 'enter':
      line.editing = false;
      return 'submit';
    case 'backspace':
      line.query = Array.from(line.query).slice(0, -1).join('');
      return 'edit';
    case 'C-u':
      line.query = '';
      return 'edit';
    default:
      if (ch !== undefined && !key.ctrl && !key.meta && printable.test(ch)) line.query += ch;
      return 'edit';
  }
}

/** The query line, in the status line while it is typed. */
export function showSearchLine(state: TuiState, context: KeyContext, line: SearchLine): void {
  state.flash = {
    text: `search› ${line.query}▏ · Enter find · Esc cancel`,
    error: false,
    until: context.now() + 600_000,
  };
}
