import { flash, onCommon, requestQuit, type Key, type KeyContext } from './key-actions.js';
import { listRows } from './list-rows.js';
import { beginAllSearch } from './all-search.js';
import { askDelete, beginRename, toggleArchive, toggleShowArchived } from './session-manage.js';
import type { TuiState } from './tui-state.js';

/**
 * Keys of the session list: move, open, create, quit; rename, archive and delete on keys
 * that text typed in the wrong pane cannot produce (Alt chords, F2, Delete), and `.` to
 * show archived sessions.
 */
export function onSessions(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): 'quit' | 'handled' {
  const rows = listRows(state);
  switch (key.full) {
    case 'j':
    case 'down':
      state.listCursor = Math.min(rows.length - 1, state.listCursor + 1);
      return 'handled';
    case 'k':
    case 'up':
      state.listCursor = Math.max(0, state.listCursor - 1);
      return 'handled';
    case 'enter':
    case 'return': {
      const row = rows[state.listCursor];
      if (row) {
        context.open(row.summary.id);
        state.focus = 'input';
      }
      return 'handled';
    }
    case 'n':
      void context.actions.createSession().then((created) => {
        if ('id' in created) {
          context.open(created.id);
          state.focus = 'input';
        } else flash(state, context, `no new session: ${created.error}`, true);
        context.flush();
      });
      return 'handled';
    case 'escape':
      state.focus = 'input';
      return 'handled';
    case 'M-r':
    case 'f2':
      beginRename(state);
      return 'handled';
    case 'M-a':
      toggleArchive(state, context);
      return 'handled';
    case 'M-d':
    case 'delete':
      askDelete(state, context);
      return 'handled';
    case '/':
      if (context.searchAll) beginAllSearch(state);
      return 'handled';
    case '.':
      toggleShowArchived(state, context);
      return 'handled';
    case 'q':
      return requestQuit(state);
    default:
      onCommon(state, ch, context);
      return 'handled';
  }
}
