import type { SessionEvent } from '@dsh/gen/events';
import type { Journal, JournalPage } from '@dsh/journal';
import type { ModelHistory } from './model-history.js';

/** Bytes of journal lines read per call while loading, so memory stays bounded. */
const readBytes = 8 * 1024 * 1024;

/**
 * Feeds `history` the session's events from where the model's history starts: the cut
 * of the latest `context/compaction` (found in the tail page, else in its baseline), or
 * seq 0 when the session never compacted. Costs O(events since that cut), not
 * O(session). Resolves with the first seq read. `tail` is the journal's tail page when
 * the caller has read it already.
 */
export async function loadModelHistory(
  journal: Journal,
  history: ModelHistory,
  tail?: JournalPage,
): Promise<number> {
  const length = journal.length;
  if (length === 0) return 0;
  tail ??= await journal.page(undefined, 1);
  const from = historyStart(tail.events, tail.baseline?.latestCompaction);
  const first = tail.events[0]?.seq ?? length;
  // The tail page is read already: only what lies before it is read again.
  let at = from;
  while (at < Math.min(first, length)) {
    const events = await journal.read(at, first, { maxBytes: readBytes });
    history.add(events);
    at += events.length;
  }
  history.add(tail.events.slice(Math.max(0, at - first)));
  return from;
}

/** The cut of the latest compaction in `events`, else of the baseline's, else 0. */
function historyStart(
  events: readonly SessionEvent[],
  mark: { seq: number; keptFromSeq: number } | undefined,
): number {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i]!;
    if (event.payload.case === 'contextCompaction') {
      return Math.min(event.payload.value.keptFromSeq, event.seq);
    }
  }
  return mark === undefined ? 0 : Math.min(mark.keptFromSeq, mark.seq);
}
