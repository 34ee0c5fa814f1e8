/** Live sessions: the shared data path of both clients (Page, Follow, WatchSessions, reconnect). */
export { backoffDelay, type BackoffOptions } from '@dsh/backoff';
export { defaultBackoff } from './backoff.js';
export { describeError, isRetryable, type ConnectionState } from './connection-state.js';
export {
  createSessionList,
  type SessionList,
  type SessionListOptions,
  type SessionListState,
} from './session-list.js';
export { sessionTree, type SessionRow } from './session-tree.js';
export {
  createSessionWindow,
  type SessionWindow,
  type SessionWindowOptions,
  type SessionWindowState,
} from './session-window.js';
export {
  createHistoryWindow,
  historyAsSessionWindow,
  type HistoryWindow,
  type HistoryWindowOptions,
  type HistoryWindowState,
} from './history-window.js';
export { openHitWindow, windowHoldsHit, type HitWindow, type ShownWindow } from './hit-window.js';
export {
  createSearchHits,
  snippetParts,
  type SearchHits,
  type SearchHitsOptions,
  type SearchHitsState,
  type SearchRequestInit,
} from './search-hits.js';
