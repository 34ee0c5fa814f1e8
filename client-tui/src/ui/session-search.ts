import type { CardCache } from '@dsh/card-models';
import {
  createHistoryWindow,
  createSearchHits,
  historyAsSessionWindow,
  type HistoryWindow,
} from '@dsh/client-live';
import type { SearchHit } from '@dsh/gen/service';
import type { TuiRendererRegistry } from '../cards/card-renderer.js';
import { createConversationRenderer } from '../conversation/render-conversation.js';
import type { SessionClient } from '../data/session-client.js';
import { createConversationView } from './conversation-view.js';
import { flash, type Key, type KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

// One character that is not a control character.
// eslint-disable-next-line no-control-regex -- control characters are what it excludes
const printable = /^[^\x00-\x1f\x7f-\x9f]$/u;

/** What searching the open session needs. */
export interface SearchDeps {
  readonly client: SessionClient;
  readonly registry: TuiRendererRegistry;
  readonly cards: CardCache;
  readonly bodyHeight: () => number;
  readonly onChange: () => void;
}

/** The search of the open session: typing its query, then its hits (n / N). */
export interface TuiSearch {
  /** Opens the query line (`/`). */
  begin(state: TuiState, context: KeyContext): void;
  /** Keys while the query line is open; false when it is not. */
  onKey(state: TuiState, ch: string | undefined, key: Key, context: KeyContext): boolean;
  /** n / N: the next or previous hit, paged in and selected. */
  move(state: TuiState, context: KeyContext, step: 1 | -1): void;
  /** Opens a hit's session (a hit of the all-sessions search) and selects the hit's item. */
  openHit(state: TuiState, context: KeyContext, hit: SearchHit): void;
  /** Leaves a history window for the live one (G, End). False when the window is live. */
  backToLive(state: TuiState, open: (sessionId: string) => void): boolean;
}

/** The query line and the hits of the open session's search. */
export interface SearchLine {
  query: string;
  editing: boolean;
}

/**
 * The TUI's search (`/`, n, N): client-live's `createSearchHits` over the open session
 * and, for each hit, the page that holds it: selected in the live window when it is
 * loaded there, else in a history window (client-live's `createHistoryWindow`) that takes
 * the conversation pane until G or End goes back to the live one.
 */
export function createTuiSearch(deps: SearchDeps): TuiSearch {
  let hits: ReturnType<typeof createSearchHits> | undefined;
  let history: { window: HistoryWindow; sessionId: string } | undefined;

  const status = (state: TuiState, context: KeyContext, hit: SearchHit | undefined): void => {
    const found = hits?.state;
    if (found === undefined) return;
    if (found.error !== undefined) return flash(state, context, found.error, true);
    if (hit === undefined)
      return flash(state, context, `no hits for "${state.searchLine?.query ?? ''}"`);
    const total = `${found.hits.length}${found.complete ? '' : '+'}`;
    flash(
      state,
      context,
      `hit ${found.selected + 1} of ${total} · seq ${hit.seq} · n next · N previous${history ? ' · G live' : ''}`,
    );
  };

  const show = async (state: TuiState, context: KeyContext, hit: SearchHit): Promise<void> => {
    const open = state.open;
    if (open === undefined || open.id !== hit.sessionId) return;
    const live = open.window.state.snapshot;
    if (history === undefined && hit.seq >= live.firstSeq && hit.seq < live.endSeq) {
      selectHit(state, hit);
      return;
    }
    const inHistory = history?.window.state.snapshot;
    if (inHistory === undefined || hit.seq < inHistory.firstSeq || hit.seq >= inHistory.endSeq) {
      history?.window.close();
      const window = createHistoryWindow({
        client: deps.client,
        sessionId: hit.sessionId,
        seq: hit.seq,
        onChange: deps.onChange,
      });
      history = { window, sessionId: hit.sessionId };
      open.window.close();
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
        window: historyAsSessionWindow(window),
      };
      await window.opened;
      if (window.state.error !== undefined) flash(state, context, window.state.error, true);
    }
    state.pendingHit = hit;
    context.flush();
  };

  const onKey = (
    state: TuiState,
    ch: string | undefined,
    key: Key,
    context: KeyContext,
  ): boolean => {
    const line = state.searchLine;
    if (line === undefined || !line.editing) return false;
    const handled = editLine(state, line, ch, key, context);
    if (state.searchLine?.editing) showLine(state, context, line);
    else if (state.flash?.text.startsWith('search› ')) state.flash = undefined;
    return handled;
  };
  const editLine = (
    state: TuiState,
    line: SearchLine,
    ch: string | undefined,
    key: Key,
    context: KeyContext,
  ): boolean => {
    switch (key.full) {
      case 'escape':
      case 'C-g':
        state.searchLine = undefined;
        return true;
      case 'return':
      case 'enter': {
        line.editing = false;
        const open = state.open;
        if (open === undefined || line.query.trim() === '') return true;
        hits?.close();
        hits = createSearchHits({
          client: deps.client,
          request: { query: line.query, sessionId: open.id },
        });
        void hits.ready.then(async () => {
          const hit = await hits?.next();
          if (hit) await show(state, context, hit);
          status(state, context, hit);
          context.flush();
        });
        return true;
      }
      case 'backspace':
        line.query = Array.from(line.query).slice(0, -1).join('');
        return true;
      case 'C-u':
        line.query = '';
        return true;
      default:
        if (ch !== undefined && !key.ctrl && !key.meta && printable.test(ch)) line.query += ch;
        return true;
    }
  };

  return {
    begin(state, context) {
      state.searchLine = { query: '', editing: true };
      showLine(state, context, state.searchLine);
    },
    onKey,
    move(state, context, step) {
      if (hits === undefined) return flash(state, context, 'no search yet: press / to search');
      const found = hits;
      void (async () => {
        const hit = step > 0 ? await found.next() : found.previous();
        if (hit) await show(state, context, hit);
        status(state, context, hit);
        context.flush();
      })();
    },
    openHit(state, context, hit) {
      if (history !== undefined && history.sessionId !== hit.sessionId) {
        history.window.close();
        history = undefined;
      }
      context.open(hit.sessionId);
      state.focus = 'conversation';
      void show(state, context, hit).then(() => {
        flash(state, context, `seq ${hit.seq} of this session${history ? ' · G live' : ''}`);
        context.flush();
      });
    },
    backToLive(state, open) {
      if (history === undefined || state.open?.id !== history.sessionId) return false;
      history.window.close();
      history = undefined;
      const id = state.open.id;
      state.open = undefined;
      open(id);
      return true;
    },
  };
}

/** The query line, in the status line while it is typed. */
function showLine(state: TuiState, context: KeyContext, line: SearchLine): void {
  state.flash = {
    text: `search› ${line.query}▏ · Enter find · Esc cancel`,
    error: false,
    until: context.now() + 600_000,
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
