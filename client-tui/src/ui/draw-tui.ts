import { selectHit } from './session-search.js';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import { drawOverlay } from './draw-overlay.js';
import { createFrame, putLine, putLines, type Frame } from './frame.js';
import { running } from './key-actions.js';
import { helpLine } from './key-help.js';
import { sessionListLines } from './session-list-lines.js';
import { queueLines } from './prompt-queue.js';
import { waitingSessions } from './status-facts.js';
import { isLive, promptLines, statusLine } from './status-line.js';
import type { OpenSession, TuiState } from './tui-state.js';
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

/** Re-renders the open session's items when its window, width, facts or streaming changed. */
function renderOpen(open: OpenSession, state: TuiState, width: number, context: DrawContext) {
  const summary = state.list?.sessions.get(open.id);
  // Path facts come from the summary whenever it arrives (a new session's comes after it opens).
  const cwd = summary?.cwd ?? open.facts.cwd;
  if (cwd !== open.facts.cwd || state.homeDir !== open.facts.home) {
    open.facts = { cwd, home: state.homeDir };
    open.renderer = createConversationRenderer({
      registry: context.registry,
      card: { facts: open.facts, cards: context.cards },
    });
  }
  const windowState = open.window.state;
  const isRunning = running(state);
  const streaming = isLive(state) && isRunning;
  const from = open.renderedFrom;
  if (
    from?.state !== windowState ||
    from.width !== width ||
    from.running !== isRunning ||
    from.streaming !== streaming ||
    from.renderer !== open.renderer
  ) {
    const options = { streaming, running: isRunning };
    open.view.setItems(open.renderer.render(windowState.snapshot, width, options));
    open.renderedFrom = { ...options, state: windowState, width, renderer: open.renderer };
  }
}

function conversationLines(
  state: TuiState,
  layout: ReturnType<typeof paneLayout>,
  context: DrawContext,
) {
  const open = state.open;
  if (!open) return [];
  renderOpen(open, state, layout.convWidth - 2, context);
  if (state.pendingHit !== undefined && selectHit(state, state.pendingHit))
    state.pendingHit = undefined;
  const windowState = open.window.state;
  open.view.setHeight(layout.bodyHeight);
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
  return lines;
}

function headerLine(state: TuiState, context: DrawContext): StyledLine {
  const open = state.open;
  const summary = open ? state.list?.sessions.get(open.id) : undefined;
  const title = summary
    ? oneLine(summary.title !== '' ? summary.title : summary.id)
    : open
      ? open.id
      : 'no session open';
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

/** The composer's rows (at most `composerMaxRows`, scrolled to the cursor) and its cursor. */
function composerRows(state: TuiState, cols: number) {
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

/** Composes the whole client from `state` into a frame (the writer sends what changed). */
export function drawTui(state: TuiState, context: DrawContext): Frame {
  const { cols, rows } = context;
  const frame = createFrame(cols, rows);
  const composer = composerRows(state, cols);
  const prompt = [...promptLines(state, cols), ...queueLines(state, cols)];
  const layout = paneLayout(cols, rows, composer.rows, prompt.length);
  state.listShown = layout.listWidth > 0;
  if (!state.listShown && state.focus === 'sessions') state.focus = 'conversation';

  putLine(frame, 0, 0, cols, headerLine(state, context));

  if (layout.listWidth > 0) {
    const listRows = state.list?.rows ?? [];
    const listTop = Math.max(0, state.listCursor - layout.bodyHeight + 1);
    const listLines = sessionListLines(listRows, {
      width: layout.listWidth,
      cursor: state.listCursor,
      openId: state.open?.id,
      focused: state.focus === 'sessions',
      waiting: waitingSessions(state),
      now: context.now,
    }).slice(listTop, listTop + layout.bodyHeight);
    if (!state.list?.loaded) listLines.push([seg('loading…', theme.dim)]);
    else if (listRows.length === 0) listLines.push([seg('no sessions (n: new)', theme.dim)]);
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
    conversationLines(state, layout, context),
  );
  putLine(frame, 0, layout.statusTop, cols, statusLine(state, context.now, cols));
  putLines(frame, 0, layout.promptTop, cols, prompt.length, prompt);
  putLines(frame, 0, layout.composerTop, cols, composer.rows, composer.lines);
  putLine(frame, 0, rows - 1, cols, truncateLine([seg(helpLine(state.focus), theme.dim)], cols));
  const overlay = drawOverlay(frame, state, context.now);
  frame.cursor =
    state.focus === 'input' && !overlay
      ? { x: Math.min(cols - 1, composer.cursor.x), y: layout.composerTop + composer.cursor.y }
      : undefined;
  return frame;
}
