import type { CardCache } from '@dsh/card-models';
import { createSessionWindow, type BackoffOptions, type SessionWindow } from '@dsh/client-live';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { SessionClient } from '../data/session-client.js';
import { releaseMemory } from './collect-garbage.js';
import { createConversationView } from './conversation-view.js';
import { listRows } from './list-rows.js';
import type { OpenSession, TuiState } from './tui-state.js';

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
  state.open?.window.close();
  const summary = state.list?.sessions.get(sessionId);
  const facts = { cwd: summary?.cwd ?? '', home: state.homeDir };
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
    window: createSessionWindow({
      client: deps.client,
      sessionId,
      onChange: deps.onChange,
      ...(deps.backoff ? { backoff: deps.backoff } : {}),
    }),
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
 * Replaces the open session's live window with a fresh one at its tail, once that one has
 * opened (the old one is drawn until then), so the older pages the old window loaded are
 * released (and collected). Nothing is replaced when the reader scrolled away from the bottom meanwhile or
 * another session opened.
 */
export function reopenAtTail(state: TuiState, deps: OpenDeps): void {
  // Held until the swap only: the new window's listener must not keep the old one alive.
  let previous: OpenSession | undefined = state.open;
  if (previous === undefined) return;
  const window: SessionWindow = createSessionWindow({
    client: deps.client,
    sessionId: previous.id,
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
    onChange: () => {
      if (previous !== undefined && window.state.opened) {
        const old = previous;
        previous = undefined;
        if (state.open === old && old.view.following) {
          old.window.close();
          state.open = {
            id: old.id,
            facts: old.facts,
            window,
            renderer: createConversationRenderer({
              registry: deps.registry,
              card: { facts: old.facts, cards: deps.cards },
            }),
            view: createConversationView(deps.bodyHeight),
            renderedFrom: undefined,
            olderPages: 0,
          };
          // After the next draw: the old window's pages go back to the system.
          releaseMemory(100);
        } else window.close();
      }
      if (state.open?.window === window) deps.onChange();
    },
  });
}
