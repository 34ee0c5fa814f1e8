import type { ConversationSnapshot } from '@dsh/card-models';
import type { SearchHit } from '@dsh/gen/service';
import {
  createHistoryWindow,
  historyAsSessionWindow,
  type HistoryWindow,
  type HistoryWindowOptions,
} from './history-window.js';
import type { SessionWindow } from './session-window.js';

/** The window a client shows: its session and what it holds. */
export interface ShownWindow {
  readonly sessionId: string | undefined;
  readonly snapshot: Pick<ConversationSnapshot, 'firstSeq' | 'endSeq'> | undefined;
}

/**
 * Whether the shown window (live or history) already holds a search hit's event: then
 * the client only scrolls to it and selects it; otherwise it opens `openHitWindow`.
 */
export function windowHoldsHit(
  hit: Pick<SearchHit, 'sessionId' | 'seq'>,
  shown: ShownWindow,
): boolean {
  const { snapshot } = shown;
  return (
    shown.sessionId === hit.sessionId &&
    snapshot !== undefined &&
    hit.seq >= snapshot.firstSeq &&
    hit.seq < snapshot.endSeq
  );
}

/** A history window opened at a hit, and the same as a session window for drawing. */
export interface HitWindow {
  readonly history: HistoryWindow;
  readonly window: SessionWindow;
}

/**
 * The window both clients show a search hit in when the shown window does not hold it:
 * a history window on the page that holds the hit's seq (however far back), with the
 * session window interface the conversation is drawn from. `opened` of `history`
 * resolves once that page is in.
 */
export function openHitWindow(
  hit: Pick<SearchHit, 'sessionId' | 'seq'>,
  options: Omit<HistoryWindowOptions, 'sessionId' | 'seq'>,
): HitWindow {
  const history = createHistoryWindow({ ...options, sessionId: hit.sessionId, seq: hit.seq });
  return { history, window: historyAsSessionWindow(history) };
}
