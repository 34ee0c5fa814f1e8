/**
 * The file backend of the journal: one append-only JSONL file per session, an index of
 * line offsets, message boundaries and checkpoints persisted beside it, over a data dir plus
 * read-only fixture dirs. It implements `JournalBackend` of `@dsh/journal`, which writes
 * the page cut, the baseline and follow once above it.
 */
export {
  createJournalStore,
  type FileJournalStore,
  type JournalStoreOptions,
} from './journal-store.js';
export {
  createFileJournalBackend,
  type FileJournalBackend,
  type FileJournalOptions,
} from './file-journal-backend.js';
export {
  acquireDataDirLock,
  dataDirHeldMessage,
  dataDirLockName,
  type DataDirLock,
} from './data-dir-lock.js';

export {
  createRipgrepSearch,
  type RipgrepSearchOptions,
  type SearchableFiles,
} from './search/ripgrep-search.js';
export { ripgrepMissing, ripgrepProgram } from './search/run-ripgrep.js';

// For other packages that read JSONL files line by line (the transcript importers).
export { LineCutter, readChunks, scanLines, splitLines, type ScanEnd } from './scan-lines.js';

// For other writers that must hold a lock file (the Claude Code import lock).
export {
  acquireLockFile,
  describeHolder,
  lockHolder,
  type LockHolder,
  type LockResult,
} from './lock-file.js';
