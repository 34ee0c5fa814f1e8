/** The host's durable journal store: one append-only JSONL file per session. */
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
export { createJournalStore, type JournalStoreOptions } from './journal-store.js';
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
export { defaultMaxMessages, maxMaxMessages, pageRange, type PageRange } from './page-range.js';
export { parseSessionId } from './session-id.js';
