/**
 * The journal core every backend shares: the store and journal contracts, JournalError,
 * the event-line codec, the page cut, follow, session ids and the projections a tail page
 * carries, written once over the `JournalBackend` interface. No file or network access:
 * a backend such as `@dsh/journal-file` implements the storage.
 */
export {
  messageTypes,
  eventTypes,
  payloadCaseByType,
  type KnownPayloadCase,
} from './event-types.js';
export { isJournalTime } from './check-append-times.js';
export { lineLength, noteLineLength } from './event-line-bytes.js';
export { eventPayloads } from './event-payloads.js';
export {
  factsRestore,
  factsSnapshot,
  factsTitle,
  factTypes,
  foldFacts,
  maxTitleChars,
  noFacts,
  titleText,
  type SessionFacts,
} from './session-facts.js';
export {
  decodeHeaderLine,
  encodeHeaderLine,
  formatVersion,
  type JournalHeader,
} from './journal-header.js';
export {
  checkEventHead,
  decodeEventLine,
  encodeEventLine,
  eventFromHead,
  eventType,
  maxSeq,
  peekLine,
  type EventHead,
  type LineResult,
} from './journal-line.js';
export {
  JournalError,
  type AppendOptions,
  type CreateJournal,
  type EventPayload,
  type FollowOptions,
  type Journal,
  type JournalErrorKind,
  type JournalFollow,
  type JournalPage,
  type JournalStore,
  type ReadOptions,
} from './journal-types.js';
export type { JournalHead, JournalSummary, StoreChange } from './journal-backend.js';
export { openJournalStore, type OpenJournalStoreOptions } from './open-journal-store.js';
export {
  maxEventLineBytes,
  oversizedLineType,
  lineHeadBytes,
  oversizedLineEvent,
  parseLineHead,
  type OversizedLine,
} from './oversized-line.js';
export { prepareAppend, type PreparedAppend } from './prepare-append.js';
export {
  checkPageRequest,
  defaultMaxMessages,
  maxMaxMessages,
  maxPageBytes,
  pageRange,
  type PageRange,
  type PageRequest,
} from './page-range.js';
export { compareSessionIds, parseSessionId } from './session-id.js';
export {
  createProjectionRegistry,
  defaultProjections,
  latestCompaction,
  latestTurn,
  parseTodoArguments,
  sessionCost,
  standardProjections,
  queuedInputs,
  todoList,
  tokenUsage,
  usageCost,
  type BaselineFields,
  type CompactionMarkState,
  type CostState,
  type LatestTurnState,
  type ModelPrice,
  type PriceTable,
  type Projection,
  type ProjectionRegistry,
  type ProjectionStates,
  type TodoEntry,
  type TodoListState,
  type TokenUsageState,
  type WaitingInput,
} from './projections/index.js';

// For journal backends: the interface they implement, and what helps implement it.
export type {
  JournalBackend,
  JournalLog,
  LiveOptions,
  LogAppendOptions,
  LogReadOptions,
  MessageStartsQuery,
  ProjectionCheckpoint,
} from './journal-backend.js';
export { checkAppendTimes } from './check-append-times.js';
export {
  checkpointInterval,
  ProjectionCheckpoints,
  SnapshotText,
} from './projection-checkpoints.js';
export { LiveFeed } from './live-feed.js';
export { batchUpdates } from './batch-updates.js';

// Search: the query, its checks and cursor, and the check of a matched line's fields that
// every backend's search shares.
export {
  checkSearchQuery,
  defaultSearchLimit,
  maxSearchLimit,
  maxSearchQueryLength,
  type SearchRequestInput,
} from './search/check-search-query.js';
export { decodeSearchCursor, encodeSearchCursor } from './search/search-cursor.js';
export { matchLine, type LineHit, type LineMatchRange } from './search/match-line.js';
export { lineStrings, type LineShape, type LineString } from './search/line-strings.js';
export { searchPatterns } from './search/search-patterns.js';
export {
  searchKindNames,
  type SearchCursor,
  type SearchHit,
  type SearchKindName,
  type SearchPage,
  type SearchQuery,
  type SessionSearch,
  type SnippetMatch,
} from './search/search-types.js';
