/**
 * The journal core every backend shares: the store and journal contracts, JournalError,
 * the event-line codec, page ranges, session ids and the projections a tail page carries.
 * No file access: a backend such as `@dsh/journal-file` builds on it.
 */
export {
  messageTypes,
  eventTypes,
  payloadCaseByType,
  type KnownPayloadCase,
} from './event-types.js';
export { isJournalTime } from './check-append-times.js';
export { eventPayloads } from './event-payloads.js';
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
  type EventPayload,
  type Journal,
  type JournalErrorKind,
  type JournalListener,
  type JournalPage,
  type JournalStore,
  type JournalSummary,
  type ReadOptions,
  type StoreChange,
} from './journal-types.js';
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
  defaultMaxMessages,
  maxMaxMessages,
  maxPageBytes,
  pageRange,
  type PageRange,
} from './page-range.js';
export { parseSessionId } from './session-id.js';
export {
  createProjectionRegistry,
  defaultProjections,
  parseTodoArguments,
  queuedInputs,
  todoList,
  tokenUsage,
  type BaselineFields,
  type Projection,
  type ProjectionRegistry,
  type ProjectionStates,
  type TodoEntry,
  type TodoListState,
  type TokenUsageState,
  type WaitingInput,
} from './projections/index.js';

// For journal backends: append-time checks and projection checkpoints.
export { checkAppendTimes } from './check-append-times.js';
export { checkpointInterval, ProjectionCheckpoints } from './projection-checkpoints.js';
