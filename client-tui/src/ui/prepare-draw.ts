import { createConversationRenderer } from '../conversation/render-conversation.js';
import { frameLayout, type DrawContext } from './draw-tui.js';
import { running } from './key-actions.js';
import { isLive } from './status-line.js';
import type { OpenSession, TuiState } from './tui-state.js';
import { selectHit } from './hit-view.js';
import { shownWindow } from './far-reading.js';

/**
 * Milliseconds a draw spends re-rendering items at a new width: the items on screen come
 * first, the rest keep their previous width's lines (off screen, only their heights are
 * off) and are drawn by the following draws. The first draw at a new width renders the
 * items on screen only, so a resize shows its frame at once.
 */
export const renderBudgetMs = 30;

/**
 * Re-renders the open session's items when its window, width, facts or streaming changed,
 * or a budgeted render at a new width has nodes left.
 */
function renderOpen(
  open: OpenSession,
  state: TuiState,
  size: { readonly width: number; readonly rows: number },
  context: DrawContext,
) {
  const { width } = size;
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
  const windowState = shownWindow(open).state;
  const isRunning = running(state);
  const streaming = isLive(state) && isRunning;
  const from = open.renderedFrom;
  if (
    from?.complete === false ||
    from?.state !== windowState ||
    from.width !== width ||
    from.running !== isRunning ||
    from.streaming !== streaming ||
    from.renderer !== open.renderer
  ) {
    const options = { streaming, running: isRunning };
    const budget = {
      deadline: performance.now() + (from?.width === width ? renderBudgetMs : 0),
      focusItem: open.view.frame().owners[0] ?? Number.MAX_SAFE_INTEGER,
      rows: size.rows,
    };
    open.view.setItems(open.renderer.render(windowState.snapshot, width, { ...options, budget }));
    open.renderedFrom = {
      ...options,
      state: windowState,
      width,
      renderer: open.renderer,
      complete: open.renderer.complete,
    };
  }
}

/**
 * Brings the state a frame depends on up to date for the terminal size in `context`: whether
 * the session list shows (focus leaves it when it does not), the open session's rendered
 * items and the conversation pane's height. `drawTui` then only reads.
 */
export function prepareDraw(state: TuiState, context: DrawContext): void {
  const { layout } = frameLayout(state, context.cols, context.rows);
  state.listShown = layout.listWidth > 0;
  if (!state.listShown && state.focus === 'sessions') state.focus = 'conversation';
  const open = state.open;
  if (!open) return;
  renderOpen(open, state, { width: layout.convWidth - 2, rows: 2 * layout.bodyHeight }, context);
  open.view.setHeight(layout.bodyHeight);
  // A search hit waits here until the window that holds it has rendered its items.
  if (state.pendingHit !== undefined && selectHit(state, state.pendingHit))
    state.pendingHit = undefined;
}
