import { onCommon, type Key, type KeyContext } from './key-actions.js';
import type { TuiState } from './tui-state.js';

/** Keys of the session list: move, open, create. */
export function onSessions(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
): void {
  const rows = state.list?.rows ?? [];
  switch (key.full) {
    case 'j':
    case 'down':
      state.listCursor = Math.min(rows.length - 1, state.listCursor + 1);
      return;
    case 'k':
    case 'up':
      state.listCursor = Math.max(0, state.listCursor - 1);
      return;
    case 'enter':
    case 'return': {
      const row = rows[state.listCursor];
      if (row) {
        context.open(row.summary.id);
        state.focus = 'conversation';
      }
      return;
    }
    case 'n':
      void context.actions.createSession().then((created) => {
        if ('id' in created) context.open(created.id);
        else state.flash = { text: `no new session: ${created.error}`, error: true };
        context.flush();
      });
      return;
    default:
      onCommon(state, ch, context);
  }
}
