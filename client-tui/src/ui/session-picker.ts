import { abbreviateHome } from '@dsh/card-models';
import type { SessionRow } from '@dsh/client-live';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { lineWidth, truncateLine } from '../text/text-width.js';
import type { Key, KeyContext } from './key-actions.js';
import { listRows } from './list-rows.js';
import { sessionTitle } from './session-title.js';
import { relativeTime, timestampMs } from './relative-time.js';
import { waitingSessions } from './status-facts.js';
import type { TuiState } from './tui-state.js';

// One character that is not a control character.
// eslint-disable-next-line no-control-regex -- control characters are what it excludes
const printable = /^[^\x00-\x1f\x7f-\x9f]$/u;

/** Opens the session picker with an empty query. */
export function openPicker(state: TuiState): void {
  state.picker = { query: '', cursor: 0 };
}

/**
 * The sessions whose title, id or directory contain every word of the query (any case),
 * in the list's order (lineage, newest first).
 */
export function pickerMatches(state: TuiState): SessionRow[] {
  const words = (state.picker?.query ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w !== '');
  const rows = listRows(state);
  if (words.length === 0) return [...rows];
  return rows.filter((row) => {
    const { title, id, cwd } = row.summary;
    const haystack = `${title}\n${id}\n${cwd}`.toLowerCase();
    return words.every((word) => haystack.includes(word));
  });
}

/**
 * Keys of the picker: typing filters, Backspace and C-u edit the query, ↑ ↓ (C-p C-n)
 * move, Enter opens the highlighted session, Esc closes.
 */
export function onPicker(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): 'handled' {
  const picker = state.picker;
  if (picker === undefined) return 'handled';
  const matches = pickerMatches(state);
  switch (key.full) {
    case 'escape':
    case 'C-g':
      state.picker = undefined;
      return 'handled';
    case 'return':
    case 'enter': {
      const row = matches[Math.min(picker.cursor, matches.length - 1)];
      state.picker = undefined;
      if (row) {
        context.open(row.summary.id);
        state.focus = 'input';
      }
      return 'handled';
    }
    case 'up':
    case 'C-p':
      picker.cursor = Math.max(0, picker.cursor - 1);
      return 'handled';
    case 'down':
    case 'C-n':
      picker.cursor = Math.min(Math.max(0, matches.length - 1), picker.cursor + 1);
      return 'handled';
    case 'backspace':
      picker.query = Array.from(picker.query).slice(0, -1).join('');
      picker.cursor = 0;
      return 'handled';
    case 'C-u':
      picker.query = '';
      picker.cursor = 0;
      return 'handled';
    default:
      if (ch !== undefined && !key.ctrl && !key.meta && printable.test(ch)) {
        picker.query += ch;
        picker.cursor = 0;
      }
      return 'handled';
  }
}

/** The picker drawn over the panes: the query, then the matches with state, directory and age. */
export function pickerLines(
  state: TuiState,
  cols: number,
  height: number,
  now: number,
): StyledLine[] {
  const picker = state.picker;
  if (picker === undefined) return [];
  const matches = pickerMatches(state);
  picker.cursor = Math.min(picker.cursor, Math.max(0, matches.length - 1));
  const waiting = waitingSessions(state);
  const head: StyledLine[] = [
    truncateLine(
      [
        seg('Open session ', theme.bold),
        seg('› ', theme.user),
        seg(oneLine(picker.query)),
        seg('▏', theme.user),
        seg(
          `  ${matches.length} of ${listRows(state).length} · ↑↓ move · Enter open · Esc close`,
          theme.dim,
        ),
      ],
      cols,
    ),
    [],
  ];
  const room = Math.max(1, height - head.length);
  const top = Math.max(0, picker.cursor - room + 1);
  const rows = matches.slice(top, top + room).map((row, i) => {
    const summary = row.summary;
    const mark = waiting.has(summary.id)
      ? seg('⚑ ', theme.waiting)
      : summary.running
        ? seg('● ', theme.running)
        : seg('  ');
    const updated = timestampMs(summary.updatedAt);
    const age = updated === undefined ? '' : relativeTime(updated, now);
    const right: StyledLine = [
      seg(oneLine(abbreviateHome(summary.cwd, state.homeDir)), theme.path),
      seg(`  ${age.padStart(4)}`, theme.dim),
    ];
    const title = oneLine(sessionTitle(state, summary.id, summary));
    const left = truncateLine(
      [mark, seg(title, theme.bold)],
      Math.max(8, cols - lineWidth(right) - 2),
    );
    const gap = Math.max(1, cols - lineWidth(left) - lineWidth(right));
    const line = truncateLine([...left, seg(' '.repeat(gap)), ...right], cols);
    return top + i === picker.cursor
      ? line.map((s) => seg(s.text, { ...s.style, inverse: true }))
      : line;
  });
  if (matches.length === 0) rows.push([seg('  no session matches', theme.dim)]);
  return [...head, ...rows];
}
