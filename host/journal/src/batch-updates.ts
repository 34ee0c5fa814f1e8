import type { StoreChange } from './journal-backend.js';
import type { LiveFeed } from './live-feed.js';

/**
 * Returns a function that notes a session as appended to: the sessions noted in one tick
 * reach `feed` as one batch of `updated` changes, so a burst of appends reports each
 * session once (what `JournalBackend.watch` promises), not once per append.
 */
export function batchUpdates(feed: LiveFeed<StoreChange>): (sessionId: string) => void {
  const updated = new Set<string>();
  return (sessionId) => {
    if (updated.size === 0) {
      setImmediate(() => {
        const ids = [...updated];
        updated.clear();
        feed.push(ids.map((id) => ({ kind: 'updated', sessionId: id })));
      });
    }
    updated.add(sessionId);
  };
}
