import {
  flash,
  loadOlderAtTop,
  onCommon,
  requestQuit,
  type Key,
  type KeyContext,
} from './key-actions.js';
import { copySelected } from './copy-item.js';
import { fileViewOf, openSessionFacts } from './file-view.js';
import type { TuiState } from './tui-state.js';

/** Older pages a window keeps when End follows the bottom again; more are released. */
export const releaseAfterPages = 2;

/**
 * Keys of the conversation pane: cards, scrolling, details, the file view, copying. Letters
 * here only move, show and copy; nothing in this pane answers, stops or sends.
 */
export function onConversation(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): 'quit' | 'handled' {
  const open = state.open;
  const view = open?.view;
  const page = Math.max(1, (open?.view.frame().lines.length ?? 2) - 2);
  switch (key.full) {
    case 'j':
    case 'down':
      view?.select(1);
      context.reading?.newer(state);
      return 'handled';
    case 'k':
    case 'up':
      view?.select(-1);
      loadOlderAtTop(state, context);
      return 'handled';
    case 'pagedown':
    case 'C-d':
    case 'space':
      view?.scroll(page);
      context.reading?.newer(state);
      return 'handled';
    case 'pageup':
    case 'C-u':
      if (view?.frame().atTop) loadOlderAtTop(state, context);
      view?.scroll(-page);
      loadOlderAtTop(state, context);
      return 'handled';
    case 'g':
    case 'home':
      view?.top();
      loadOlderAtTop(state, context);
      return 'handled';
    case 'S-g':
    case 'end':
      if (context.reading?.end(state) !== true) view?.follow();
      if (open !== undefined && open.olderPages > releaseAfterPages) context.releaseOlder?.();
      return 'handled';
    case 'enter':
    case 'return': {
      const item = view?.items[view.selected];
      if (item) state.details = { key: item.key, top: 0 };
      return 'handled';
    }
    case 'o': {
      const item = view?.items[view.selected];
      const facts = openSessionFacts(state);
      const target = item && view && facts ? fileViewOf(view.items, item, facts) : undefined;
      if (target) state.details = { key: target.key, top: 0 };
      return 'handled';
    }
    case 'y':
      copySelected(state, context, 'text');
      return 'handled';
    case 'S-y':
      copySelected(state, context, 'command');
      return 'handled';
    case 'l': {
      const link = view?.items[view.selected]?.link;
      if (link) context.open(link.sessionId);
      else flash(state, context, 'this item leads to no other session');
      return 'handled';
    }
    case 'u': {
      const parent = open ? state.list?.sessions.get(open.id)?.parentId : undefined;
      if (parent) context.open(parent);
      else flash(state, context, 'this session has no parent session');
      return 'handled';
    }
    case 'i':
    case 'escape':
      state.focus = 'input';
      return 'handled';
    case 'q':
      return requestQuit(state);
    default:
      onCommon(state, ch, context);
      return 'handled';
  }
}
