import type { CardCache } from '@dsh/card-models';
import { createSessionWindow, type BackoffOptions } from '@dsh/client-live';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { SessionClient } from '../data/session-client.js';
import { createConversationView } from './conversation-view.js';
import { releaseMemory } from './collect-garbage.js';
import { closeWindows, reopenLive, settleMs } from './far-reading.js';
import { listRows } from './list-rows.js';
import type { TuiState } from './tui-state.js';

/** What opening a session needs besides the state. */
export interface OpenDeps {
  readonly client: SessionClient;
  readonly backoff?: BackoffOptions;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
  /** Rows of the conversation pane now (the view learns the real height at each draw). */
  readonly bodyHeight: number;
  readonly onChange: () => void;
}

/**
 * Makes `sessionId` the open session: closes the previous window, follows the new one
 * (client-live's session window), and forgets what belonged to the old one (details, answers,
 * the prompt). Path facts start from the summary known now and follow it at each draw.
 */
export function openSession(state: TuiState, sessionId: string, deps: OpenDeps): void {
  if (state.open?.id === sessionId) return;
  if (state.open !== undefined) closeWindows(state.open);
  const summary = state.list?.sessions.get(sessionId);
  const facts = { cwd: summary?.cwd ?? '', home: state.homeDir };
  // Once open, a collection returns the previous session's windows and the first page's
  // decoding garbage (an idle client allocates too little for V8 to collect by itself).
  let settled = false;
  const window = createSessionWindow({
    client: deps.client,
    sessionId,
    onChange: () => {
      if (!settled && window.state.opened) {
        settled = true;
        releaseMemory(settleMs);
      }
      deps.onChange();
    },
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
  });
  state.open = {
    id: sessionId,
    facts,
    renderer: createConversationRenderer({
      registry: deps.registry,
      card: { facts, cards: deps.cards },
    }),
    view: createConversationView(deps.bodyHeight),
    renderedFrom: undefined,
    olderPages: 0,
    reading: undefined,
    window,
  };
  state.details = undefined;
  state.answers = undefined;
  state.prompt = undefined;
  state.inputMode = 'prompt';
  state.queue = [];
  state.history = undefined;
  const index = listRows(state).findIndex((row) => row.summary.id === sessionId);
  if (index >= 0) state.listCursor = index;
}

/**
 * Replaces the open session's live window with a fresh one at its tail once that one has
 * opened (the old one is drawn until then), so the older pages the old one loaded are
 * released (and collected). Nothing is replaced when the reader scrolled away from the
 * bottom meanwhile or another session opened.
 */
export function reopenAtTail(state: TuiState, deps: OpenDeps): void {
  const open = state.open;
  if (open === undefined) return;
  reopenLive(state, open, deps, () => open.view.following && open.reading === undefined);
}
