import type { Key, KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

/**
 * The search keys of the conversation pane: `/` searches the open session, `n` / `N` go
 * to the next / previous hit, and G or End leave a search's history window for the live
 * one. True when the key was one of them.
 */
export function onSearchKey(state: TuiState, key: Key, context: KeyContext): boolean {
  const search = context.search;
  if (search === undefined) return false;
  switch (key.full) {
    case '/':
      search.begin(state, context);
      return true;
    case 'n':
      search.move(state, context, 1);
      return true;
    case 'S-n':
      search.move(state, context, -1);
      return true;
    case 'S-g':
    case 'end':
      return search.backToLive(state, context.open);
    default:
      return false;
  }
}
