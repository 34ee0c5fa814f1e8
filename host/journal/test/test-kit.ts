/**
 * Test helpers for packages that use journals: observe appends and store changes the way
 * a follower does, through `Journal.follow` and `JournalStore.watch`.
 */
import type { SessionEvent } from '@dsh/gen/events';
import type { Journal, JournalStore, StoreChange } from '../src/index.js';

/**
 * Calls `listener` with the events appended to `journal` from its current length on, in
 * seq order and each once, from a follow; resolves once the follow is live with the
 * function that stops it.
 */
export async function onAppended(
  journal: Journal,
  listener: (events: readonly SessionEvent[]) => void,
): Promise<() => void> {
  const stop = new AbortController();
  const follow = await journal.follow(journal.length, {
    signal: stop.signal,
    queueLimit: Number.POSITIVE_INFINITY,
    readChunk: 1_000,
    readChunkBytes: 1024 * 1024,
  });
  void (async () => {
    for await (const events of follow) listener(events);
  })().catch((error: unknown) => {
    if (!stop.signal.aborted) console.error('onAppended: the follow failed', error);
  });
  return () => stop.abort();
}

/**
 * Calls `listener` with every change of `store`'s sessions; resolves once the watch is
 * live with the function that stops it.
 */
export async function onStoreChange(
  store: JournalStore,
  listener: (change: StoreChange) => void,
): Promise<() => void> {
  const stop = new AbortController();
  const changes = store.watch({ signal: stop.signal })[Symbol.asyncIterator]();
  await changes.next();
  void (async () => {
    for (;;) {
      const batch = await changes.next();
      if (batch.done === true) return;
      for (const change of batch.value) listener(change);
    }
  })();
  return () => stop.abort();
}
