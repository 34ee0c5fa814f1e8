import { createSearchHits, type SearchHits } from '@dsh/client-live';
import type { SearchHit } from '@dsh/gen/service';
import { createHitView, type HitViewDeps } from './hit-view.js';
import { flash, type Key, type KeyContext } from './key-actions.js';
import { editSearchLine, showSearchLine } from './search-line.js';
import type { TuiState } from './tui-state.js';

/** What searching the open session needs. */
export type SearchDeps = HitViewDeps;

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

/**
 * The TUI's search (`/`, n, N): the query line (`editSearchLine`), client-live's
 * `createSearchHits` over the open session, and each hit shown by the hit view (paged in
 * and selected, in a history window when the live one does not hold it); the status
 * line says which hit of how many.
 */
export function createTuiSearch(deps: SearchDeps): TuiSearch {
  let hits: SearchHits | undefined;
  const view = createHitView(deps);

  const status = (state: TuiState, context: KeyContext, hit: SearchHit | undefined): void => {
    const found = hits?.state;
    if (found === undefined) return;
    if (found.error !== undefined) return flash(state, context, found.error, true);
    if (hit === undefined) {
      return flash(state, context, `no hits for "${state.searchLine?.query ?? ''}"`);
    }
    const total = `${found.hits.length}${found.complete ? '' : '+'}`;
    const live = view.inHistory() ? ' · G live' : '';
    flash(
      state,
      context,
      `hit ${found.selected + 1} of ${total} · seq ${hit.seq} · n next · N previous${live}`,
    );
  };

  /** Shows the hit `pick` chooses once it resolves, and says where the search stands. */
  const step = (
    state: TuiState,
    context: KeyContext,
    pick: () => Promise<SearchHit | undefined> | SearchHit | undefined,
  ): void => {
    void (async () => {
      const hit = await pick();
      if (hit) await view.show(state, context, hit);
      status(state, context, hit);
      context.flush();
    })();
  };

  const run = (state: TuiState, context: KeyContext, query: string): void => {
    const open = state.open;
    if (open === undefined || query.trim() === '') return;
    hits?.close();
    const current = (hits = createSearchHits({
      client: deps.client,
      request: { query, sessionId: open.id },
    }));
    step(state, context, async () => {
      await current.ready;
      return hits === current ? current.next() : undefined;
    });
  };

  return {
    begin(state, context) {
      state.searchLine = { query: '', editing: true };
      showSearchLine(state, context, state.searchLine);
    },
    onKey(state, ch, key, context) {
      const line = state.searchLine;
      if (line === undefined || !line.editing) return false;
      const done = editSearchLine(line, ch, key);
      if (done === 'cancel') state.searchLine = undefined;
      if (done === 'submit') run(state, context, line.query);
      if (state.searchLine?.editing) showSearchLine(state, context, line);
      else if (state.flash?.text.startsWith('search› ')) state.flash = undefined;
      return true;
    },
    move(state, context, direction) {
      const found = hits;
      if (found === undefined) return flash(state, context, 'no search yet: press / to search');
      step(state, context, () => (direction > 0 ? found.next() : found.previous()));
    },
    openHit(state, context, hit) {
      if (!view.inHistory(hit.sessionId)) view.close();
      context.open(hit.sessionId);
      state.focus = 'conversation';
      void view.show(state, context, hit).then(() => {
        const live = view.inHistory() ? ' · G live' : '';
        flash(state, context, `seq ${hit.seq} of this session${live}`);
        context.flush();
      });
    },
    backToLive(state, open) {
      const id = state.open?.id;
      if (id === undefined || !view.inHistory(id)) return false;
      view.close();
      state.open = undefined;
      open(id);
      return true;
    },
  };
}
