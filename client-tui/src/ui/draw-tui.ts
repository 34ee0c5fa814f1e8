import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import { drawOverlay } from './draw-overlay.js';
import { shownWindow } from './far-reading.js';
import { sessionTitle } from './session-title.js';
import { createFrame, putLine, putLines, type Frame } from './frame.js';
import { helpLine } from './key-help.js';
import { listRows } from './list-rows.js';
import { sessionListLines } from './session-list-lines.js';
import { manageLines } from './session-manage.js';
import { queueLines } from './prompt-queue.js';
import { inputLocked } from './read-only.js';
import { waitingSessions } from './status-facts.js';
import { isLive, promptLines, statusLine } from './status-line.js';
import type { TuiState } from './tui-state.js';
import type { CardCache } from '@dsh/card-models';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';

/** The composer shows at most this many rows, then scrolls. */
export const composerMaxRows = 8;

/** Layout of the panes for a terminal size, a composer and a prompt bar of so many rows. */
export function paneLayout(cols: number, rows: number, composerRows = 1, promptRows = 0) {
  const listWidth = cols >= 60 ? Math.min(28, Math.floor(cols * 0.28)) : 0;
  const convLeft = listWidth > 0 ? listWidth + 1 : 0;
  const bodyHeight = Math.max(1, rows - 3 - composerRows - promptRows);
  return {
    listWidth,
    convLeft,
    convWidth: Math.max(10, cols - convLeft),
    bodyHeight,
    statusTop: 1 + bodyHeight,
    promptTop: 2 + bodyHeight,
    composerTop: 2 + bodyHeight + promptRows,
  };
}

/** What drawing needs besides the state. */
export interface DrawContext {
  readonly cols: number;
  readonly rows: number;
  readonly hostLabel: string;
  readonly now: number;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
}

function conversationLines(state: TuiState) {
  const open = state.open;
  if (!open) return [];
  const windowState = shownWindow(open).state;
  const frame = open.view.frame();
  const lines: StyledLine[] = frame.lines.map((line, i) => {
    const selected = frame.owners[i] === open.view.selected && !open.view.following;
    const gutter = selected
      ? seg('▌ ', state.focus === 'conversation' ? theme.running : theme.dim)
      : seg('  ');
    return [gutter, ...line];
  });
  if (!windowState.opened) return [[seg('  loading…', theme.dim)]];
  if (frame.atTop && windowState.hasMore && lines.length > 0) {
    lines[0] = [
      seg(windowState.loadingOlder ? '  loading older…' : '  ↑ older messages (PgUp)', theme.dim),
    ];
  }
  const reading = open.reading?.history.state;
  if (frame.atBottom && reading?.opened === true && lines.length > 1) {
    const text = reading.loading ? '  loading newer…' : '  ↓ newer messages (PgDn)  End: live';
    lines[lines.length - 1] = [seg(text, theme.dim)];
  }
  return lines;
}

function headerLine(state: TuiState, context: DrawContext): StyledLine {
  const open = state.open;
  const summary = open ? state.list?.sessions.get(open.id) : undefined;
  const title = open ? oneLine(sessionTitle(state, open.id, summary)) : 'no session open';
  const live = isLive(state);
  const status = !live
    ? [seg(' ○ disconnected', theme.error)]
    : summary?.running
      ? [seg(' ● running', theme.running)]
      : [];
  return truncateLine(
    [
      seg('dsh ', theme.bold),
      seg(`${context.hostLabel} `, theme.dim),
      seg(title, state.focus === 'conversation' ? { bold: true, underline: true } : theme.bold),
      ...status,
    ],
    context.cols,
  );
}

/**
 * The composer's rows (at most `composerMaxRows`, scrolled to the cursor) and its cursor;
 * a session that takes no input gets one row saying why, and no cursor.
 */
function composerRows(
  state: TuiState,
  cols: number,
): { lines: StyledLine[]; cursor: { x: number; y: number } | undefined; rows: number } {
  const locked = inputLocked(state);
  if (locked !== undefined) {
    return { lines: [[seg('⊘ ', theme.dim), seg(locked, theme.dim)]], cursor: undefined, rows: 1 };
  }
  const label = state.inputMode === 'answer' ? 'answer› ' : '› ';
  const width = Math.max(1, cols - label.length);
  const layout = state.composer.layout(width);
  const visible = Math.min(composerMaxRows, layout.rows.length);
  const top = Math.max(0, Math.min(layout.cursor.row - visible + 1, layout.rows.length - visible));
  const focused = state.focus === 'input';
  const labelStyle = focused ? theme.user : theme.dim;
  let lines: StyledLine[];
  if (state.composer.text === '') {
    const hint = focused ? 'write a prompt: Enter sends, C-j adds a line' : 'i or Esc to compose';
    lines = [[seg(label, labelStyle), seg(hint, theme.dim)]];
  } else {
    lines = layout.rows
      .slice(top, top + visible)
      .map((row, i) => [
        seg(i === 0 && top === 0 ? label : ' '.repeat(label.length), labelStyle),
        seg(row),
      ]);
  }
  const cursor = { x: label.length + layout.cursor.column, y: layout.cursor.row - top };
  return { lines, cursor, rows: Math.max(1, visible) };
}

/** The panes of a frame of `state`: sized around its composer and its prompt bar. */
export function frameLayout(state: TuiState, cols: number, rows: number) {
  const composer = composerRows(state, cols);
  const prompt = [
    ...manageLines(state, cols),
    ...promptLines(state, cols),
    ...queueLines(state, cols),
  ];
  return { composer, prompt, layout: paneLayout(cols, rows, composer.rows, prompt.length) };
}

/**
 * Composes the whole client from `state` into a frame (the writer sends what changed).
 * It only reads `state`: `prepareDraw` brings what depends on the terminal size up to date.
 */
export function drawTui(state: TuiState, context: DrawContext): Frame {
  const { cols, rows } = context;
  const frame = createFrame(cols, rows);
  const { composer, prompt, layout } = frameLayout(state, cols, rows);

  putLine(frame, 0, 0, cols, headerLine(state, context));

  if (layout.listWidth > 0) {
    const rows = listRows(state);
    const listTop = Math.max(0, state.listCursor - layout.bodyHeight + 1);
    const listLines = sessionListLines(rows, {
      width: layout.listWidth,
      cursor: state.listCursor,
      openId: state.open?.id,
      focused: state.focus === 'sessions',
      waiting: waitingSessions(state),
      now: context.now,
      titleOf: (summary) => sessionTitle(state, summary.id, summary),
    }).slice(listTop, listTop + layout.bodyHeight);
    if (!state.list?.loaded) listLines.push([seg('loading…', theme.dim)]);
    else if (rows.length === 0) listLines.push([seg('no sessions (n: new)', theme.dim)]);
    putLines(frame, 0, 1, layout.listWidth, layout.bodyHeight, listLines);
    const bar = (i: number): StyledLine => [
      seg('│', i === 0 && state.focus === 'sessions' ? theme.bold : theme.dim),
    ];
    for (let i = 0; i < layout.bodyHeight; i++) putLine(frame, layout.listWidth, 1 + i, 1, bar(i));
  }
  putLines(
    frame,
    layout.convLeft,
    1,
    layout.convWidth,
    layout.bodyHeight,
    conversationLines(state),
  );
  putLine(frame, 0, layout.statusTop, cols, statusLine(state, context.now, cols));
  putLines(frame, 0, layout.promptTop, cols, prompt.length, prompt);
  putLines(frame, 0, layout.composerTop, cols, composer.rows, composer.lines);
  putLine(frame, 0, rows - 1, cols, truncateLine([seg(helpLine(state.focus), theme.dim)], cols));
  const overlay = drawOverlay(frame, state, context.now);
  frame.cursor =
    state.focus === 'input' && !overlay && composer.cursor !== undefined
      ? { x: Math.min(cols - 1, composer.cursor.x), y: layout.composerTop + composer.cursor.y }
      : undefined;
  return frame;
}
