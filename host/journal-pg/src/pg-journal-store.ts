import { openJournalStore, type Journal, type JournalStore } from '@dsh/journal';
import { createPgJournalBackend, type PgJournalOptions } from './pg-journal-backend.js';

/** Options of `createPgJournalStore`. */
export interface PgJournalStoreOptions extends PgJournalOptions {
  /**
   * Runs once on each journal when this host first opens it, before any caller gets it
   * (a serving host closes there a turn a stopped host left open); skipped for a session
   * whose last writer is another host that is alive.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
}

/**
 * Opens the journal store over a PostgreSQL database: the PostgreSQL backend under the
 * journal core's store (`openJournalStore`), so page, baseline and follow are the same
 * code as over files.
 */
export async function createPgJournalStore(options: PgJournalStoreOptions): Promise<JournalStore> {
  const backend = await createPgJournalBackend(options);
  const { onFirstOpen } = options;
  return openJournalStore(backend, {
    ...(onFirstOpen !== undefined && {
      // A session another live host wrote last is left as it is: its open turn may be running there.
      onFirstOpen: async (journal: Journal) => {
        if ((await backend.liveWriter(journal.header.sessionId)) !== undefined) return;
        return onFirstOpen(journal);
      },
    }),
  });
}
