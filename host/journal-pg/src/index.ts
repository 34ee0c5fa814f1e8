/**
 * The PostgreSQL backend of the journal: sessions, events keyed by (session, seq),
 * message starts and projection checkpoints in tables migrated by the host on start,
 * and tails on every host woken by LISTEN/NOTIFY (host/journal-pg/README.md).
 */
export {
  createPgJournalBackend,
  defaultSchema,
  PgJournalBackend,
  type PgJournalOptions,
} from './pg-journal-backend.js';
export {
  createPgJournalStore,
  type PgJournalStore,
  type PgJournalStoreOptions,
} from './pg-journal-store.js';
export {
  defaultLeaseMs,
  PgSessionLeases,
  type ForwardedAnswer,
  type LeaseClaim,
  type LeaseHandlers,
} from './pg-session-leases.js';
export { createPgSearch, type PgSearchOptions } from './pg-search.js';
export { migrations, type Migration } from './migrations.js';
export { isConnectionError, pgError, redactUrl } from './pg-error.js';
