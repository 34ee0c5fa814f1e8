import { openJournalStore, type Journal, type JournalStore } from '@dsh/journal';
import { createFileJournalBackend, type FileJournalOptions } from './file-journal-backend.js';

/** Options of `createJournalStore`. */
export interface JournalStoreOptions extends FileJournalOptions {
  /**
   * Runs once on each writable journal when it is first opened, before any caller gets
   * it: a serving host closes there the turn a stopped host left open. A failure (disk
   * full) is logged and the journal is served as it is.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
}

/** A journal store over the file backend, with the data dir its files live in. */
export interface FileJournalStore extends JournalStore {
  /** The resolved data dir: importers keep their state files beside the journals. */
  readonly dataDir: string;
}

/**
 * Opens the journal store over a data dir and optional read-only fixture dirs: the file
 * backend under the journal core's store (`openJournalStore`).
 */
export async function createJournalStore(options: JournalStoreOptions): Promise<FileJournalStore> {
  const backend = await createFileJournalBackend(options);
  const store = openJournalStore(backend, { onFirstOpen: options.onFirstOpen });
  return {
    dataDir: backend.dataDir,
    location: store.location,
    list: () => store.list(),
    summary: (sessionId) => store.summary(sessionId),
    remove: (sessionId) => store.remove(sessionId),
    open: (sessionId) => store.open(sessionId),
    create: (init) => store.create(init),
    watch: (watchOptions) => store.watch(watchOptions),
    close: () => store.close(),
  };
}
