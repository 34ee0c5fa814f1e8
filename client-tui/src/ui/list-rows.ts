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

/** Keeps the list cursor on a row after the rows changed. */
export function clampListCursor(state: TuiState): void {
  state.listCursor = Math.min(state.listCursor, Math.max(0, listRows(state).length - 1));
}
