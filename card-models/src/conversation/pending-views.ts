import type { PendingItem } from './types.js';

/** A pending approval or question as both clients show it. */
export interface PendingView {
  readonly item: PendingItem;
  /**
   * True while the session runs a turn, which is then the turn that asked: only then
   * does a client offer Allow/Deny or the question's choices. An item no running turn
   * waits for (the host stopped mid-turn, a read-only journal) shows `note` instead,
   * since an answer to it could only fail.
   */
  readonly answerable: boolean;
  /** Why there is nothing to press; '' when answerable. */
  readonly note: string;
}

/** The note of an approval or question that no running turn waits for. */
export const unansweredNote = 'Not answered: the turn that asked is no longer running.';

/**
 * The pending items of a snapshot with the one rule for answering them: answerable
 * exactly while the session summary says running (`sessionRunning`).
 */
export function pendingViews(
  pending: readonly PendingItem[],
  sessionRunning: boolean,
): readonly PendingView[] {
  return pending.map((item) => ({
    item,
    answerable: sessionRunning,
    note: sessionRunning ? '' : unansweredNote,
  }));
}
