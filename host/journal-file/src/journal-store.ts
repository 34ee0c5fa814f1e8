import {
  openJournalStore,
  type Journal,
  type JournalStore,
  type SessionSearch,
} from '@dsh/journal';
import { createFileJournalBackend, type FileJournalOptions } from './file-journal-backend.js';
import { createRipgrepSearch, type RipgrepSearchOptions } from './search/ripgrep-search.js';

/** Options of `createJournalStore`. */
export interface JournalStoreOptions extends FileJournalOptions {
  /**
   * Runs once on each writable journal when it is first opened, before any caller gets
   * it: a serving host closes there the turn a stopped host left open. A failure (disk
   * full) is logged and the journal is served as it is.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
  /** Budgets of a search call (time, ripgrep output). */
  readonly search?: RipgrepSearchOptions;
}

/** A journal store over the file backend, with the data dir its files live in. */
export interface FileJournalStore extends JournalStore {
  /** The resolved data dir: importers keep their state files beside the journals. */
  readonly dataDir: string;
  /** Searches the journal files with ripgrep, without opening them. */
  readonly search: SessionSearch;
  /**
   * Resolves once the sessions listed from the catalog cache at start were checked
   * against their files; until then a list may show the facts a file had when the cache
   * was written (a file changed while no host ran is then reported as updated).
   */
  verified(): Promise<void>;
}

/**
 * Opens the journal store over a data dir and optional read-only fixture dirs: the file
 * backend under the journal core's store (`openJournalStore`).
 */
export async function createJournalStore(options: JournalStoreOptions): Promise<FileJournalStore> {
  const backend = await createFileJournalBackend(options);
  const store = openJournalStore(backend, { onFirstOpen: options.onFirstOpen });
  // The core's store itself, so every method it gains is the file store's too.
  return Object.assign(store, {
    dataDir: backend.dataDir,
    search: createRipgrepSearch(backend, options.search),
    verified: () => backend.catalog.verified(),
  });
}
