import { sessionTree, type SessionRow } from '@dsh/client-live';
import type { TuiState } from './tui-state.js';

// The visible rows per session map: the list changes by replacing the map, so a map seen
// before keeps its rows until the next change or a toggle of archived sessions.
const cached = new WeakMap<object, { showArchived: boolean; rows: readonly SessionRow[] }>();

/**
 * The session list's rows as the client shows them: the host watches archived sessions
 * too, and they are left out (their children become roots) unless `showArchived`.
 */
export function listRows(state: TuiState): readonly SessionRow[] {
  const list = state.list;
  if (list === undefined) return [];
  if (state.showArchived) return list.rows;
  const hit = cached.get(list.sessions);
  if (hit !== undefined && hit.showArchived === state.showArchived) return hit.rows;
  const rows = list.rows.some((row) => row.summary.archived)
    ? sessionTree([...list.sessions.values()].filter((summary) => !summary.archived))
    : list.rows;
  cached.set(list.sessions, { showArchived: state.showArchived, rows });
  return rows;
}

/**
 * Replaces the list, keeping the cursor on the session it was on (a rename or a new event
 * moves a session up the list), else on the same row, within the rows.
 */
export function replaceList(state: TuiState, next: TuiState['list']): void {
  const id = listRows(state)[state.listCursor]?.summary.id;
  state.list = next;
  const rows = listRows(state);
  const at = id === undefined ? -1 : rows.findIndex((row) => row.summary.id === id);
  state.listCursor = at >= 0 ? at : Math.min(state.listCursor, Math.max(0, rows.length - 1));
}

/** Keeps the list cursor on a row after the rows changed. */
export function clampListCursor(state: TuiState): void {
  state.listCursor = Math.min(state.listCursor, Math.max(0, listRows(state).length - 1));
}
