import {
  openJournalStore,
  type Journal,
  type JournalStore,
  type SessionSearch,
} from '@dsh/journal';
import { createPgJournalBackend, type PgJournalOptions } from './pg-journal-backend.js';
import { createPgSearch } from './pg-search.js';
import type { PgSessionLeases } from './pg-session-leases.js';

/** Options of `createPgJournalStore`. */
export interface PgJournalStoreOptions extends PgJournalOptions {
  /**
   * Runs once on each journal when this host first opens it, before any caller gets it
   * (a serving host closes there a turn a stopped host left open); skipped for a session
   * whose last writer is another host that is alive, or whose lease another host holds.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
}

/** The journal store over PostgreSQL, with the runtime leases of this host. */
export interface PgJournalStore extends JournalStore {
  /** Which host runs each session's agent, and the input forwarded to it (`SessionOwnership`). */
  readonly leases: PgSessionLeases;
  /** The Search RPC over the events table (`createPgSearch`). */
  readonly search: SessionSearch;
}

/**
 * Opens the journal store over a PostgreSQL database: the PostgreSQL backend under the
 * journal core's store (`openJournalStore`), so page, baseline and follow are the same
 * code as over files.
 */
export async function createPgJournalStore(
  options: PgJournalStoreOptions,
): Promise<PgJournalStore> {
  const backend = await createPgJournalBackend(options);
  const { onFirstOpen } = options;
  const store = openJournalStore(backend, {
    ...(onFirstOpen !== undefined && {
      // A session another live host wrote last, or holds, is left as it is: its open turn may be running there.
      onFirstOpen: async (journal: Journal) => {
        const id = journal.header.sessionId;
        if ((await backend.liveWriter(id)) !== undefined) return;
        if ((await backend.leases.holder(id)) !== undefined) return;
        return onFirstOpen(journal);
      },
    }),
  });
  return Object.assign(store, { leases: backend.leases, search: createPgSearch(backend.db) });
}
