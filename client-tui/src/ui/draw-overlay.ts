import { theme } from '../cards/theme.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import { putLines, type Frame } from './frame.js';
import { keyHelp } from './key-help.js';
import { pickerLines } from './session-picker.js';
import { allSearchLines } from './all-search.js';
import type { TuiState } from './tui-state.js';

function helpLines(cols: number): StyledLine[] {
  const lines: StyledLine[] = [[seg('Keys', theme.bold), seg('  (any key closes)', theme.dim)], []];
  for (const [pane, keys, what] of keyHelp) {
    lines.push(
      truncateLine(
        [seg(pane.padEnd(13), theme.dim), seg(keys.padEnd(20), theme.key), seg(what)],
        cols,
      ),
    );
  }
  lines.push(
    [],
    [
      seg(
        'Mouse is off by default so the terminal can select text; dsh tui --mouse turns it on.',
        theme.dim,
      ),
    ],
  );
  return lines;
}

function detailLines(state: TuiState, cols: number, height: number): StyledLine[] {
  const details = state.details as NonNullable<TuiState['details']>;
  const item = state.open?.view.items.find((candidate) => candidate.key === details.key);
  const body = item
    ? item.details(cols - 2)
    : [[seg('this item is no longer in the window', theme.dim)]];
  const room = height - 1;
  const maxTop = Math.max(0, body.length - room);
  // A running card's details open at the end of its live output and follow it, until
  // the reader scrolls up.
  const follow =
    item?.block?.status === 'running' &&
    (details.bottom === undefined || details.top >= details.bottom);
  details.top = follow ? maxTop : Math.min(Math.max(0, details.top), maxTop);
  details.bottom = maxTop;
  return [
    truncateLine(
      [
        seg('Details', theme.bold),
        seg(
          `  j/k scroll, y/Y copy, Esc/q close — ${details.top + 1}-${Math.min(body.length, details.top + room)} of ${body.length}`,
          theme.dim,
        ),
      ],
      cols,
    ),
    ...body.slice(details.top, details.top + room).map((line) => [seg(' '), ...line]),
  ];
}

/**
 * Draws the session picker, the all-sessions search, the help screen or the details view
 * over the frame (all rows
 * but the last).
 */
export function drawOverlay(frame: Frame, state: TuiState, now: number): boolean {
  if (!state.picker && !state.allSearch && !state.help && !state.details) return false;
  const height = Math.max(1, frame.rows - 1);
  const lines = state.picker
    ? pickerLines(state, frame.cols, height, now)
    : state.allSearch
      ? allSearchLines(state, frame.cols, height)
      : state.help
        ? helpLines(frame.cols)
        : detailLines(state, frame.cols, height);
  putLines(frame, 0, 0, frame.cols, height, lines);
  return true;
}
