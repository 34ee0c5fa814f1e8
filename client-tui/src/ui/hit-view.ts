import type { CardCache } from '@dsh/card-models';
import { openHitWindow, windowHoldsHit, type HistoryWindow } from '@dsh/client-live';
import type { SearchHit } from '@dsh/gen/service';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { SessionClient } from '../data/session-client.js';
import { createConversationView } from './conversation-view.js';
import { closeWindows, shownWindow } from './far-reading.js';
import { flash, type KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

/** What showing a hit in the conversation pane needs. */
export interface HitViewDeps {
  readonly client: SessionClient;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
  readonly bodyHeight: () => number;
  readonly onChange: () => void;
}

/** The conversation pane's side of a search: the window a hit is shown in. */
export interface HitView {
  /** Pages the hit in (client-live's hit window unless the pane holds it) and selects it. */
  show(state: TuiState, context: KeyContext, hit: SearchHit): Promise<void>;
  /** True while the pane shows a history window of `sessionId` rather than its live one. */
  inHistory(sessionId?: string): boolean;
  /** Closes the history window, if any. */
  close(): void;
}

/**
 * Shows search hits in the open session's pane: in the window it shows when that holds
 * the hit (client-live's `windowHoldsHit`), else in a history window around it
 * (`openHitWindow`) that replaces the live window until `close` and a reopen.
 */
export function createHitView(deps: HitViewDeps): HitView {
  let history: { window: HistoryWindow; sessionId: string } | undefined;
  const close = (): void => {
    history?.window.close();
    history = undefined;
  };
  return {
    async show(state, context, hit) {
      const open = state.open;
      if (open === undefined || open.id !== hit.sessionId) return;
      const shown = { sessionId: open.id, snapshot: shownWindow(open).state.snapshot };
      if (!windowHoldsHit(hit, shown)) {
        close();
        const opened = openHitWindow(hit, { client: deps.client, onChange: deps.onChange });
        history = { window: opened.history, sessionId: hit.sessionId };
        closeWindows(open);
        state.open = {
          id: open.id,
          facts: open.facts,
          renderer: createConversationRenderer({
            registry: deps.registry,
            card: { facts: open.facts, cards: deps.cards },
          }),
          view: createConversationView(deps.bodyHeight()),
          renderedFrom: undefined,
          olderPages: 0,
          reading: undefined,
          window: opened.window,
        };
        await opened.history.opened;
        const { error } = opened.history.state;
        if (error !== undefined) flash(state, context, error, true);
      } else if (history === undefined) {
        selectHit(state, hit);
        return;
      }
      state.pendingHit = hit;
      context.flush();
    },
    inHistory: (sessionId) =>
      history !== undefined && (sessionId === undefined || history.sessionId === sessionId),
    close,
  };
}

/**
 * Selects the item of a hit once the view holds it: the card of its call, else the
 * message of its seq. Drawing calls it after each re-render until the item is there.
 */
export function selectHit(state: TuiState, hit: SearchHit): boolean {
  const view = state.open?.view;
  if (view === undefined) return false;
  const index = view.items.findIndex((item) =>
    hit.callId !== ''
      ? item.key === `call:${hit.callId}`
      : item.key === `n:${hit.seq}` || item.key.startsWith(`n:${hit.seq}:`),
  );
  if (index < 0) return false;
  view.select(index - view.selected);
  return true;
}
