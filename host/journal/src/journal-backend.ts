import type { SessionEvent } from '@dsh/gen/events';
import type { JournalHeader } from './journal-header.js';
import type {
  AppendOptions,
  CreateJournal,
  EventPayload,
  JournalPage,
  ReadOptions,
} from './journal-types.js';
import type { ProjectionRegistry, ProjectionStates, TokenUsageState } from './projections/index.js';

/**
 * The storage a journal backend implements: sessions keyed by id, each an append-only
 * log of events keyed by seq. Everything above storage (the page cut, the tail-page
 * baseline, follow's catch-up and de-duplication) is written once over this interface
 * (`openJournalStore`), so a backend (files, a database) only stores and indexes events.
 * Every method throws `JournalError`.
 */
export interface JournalBackend {
  /** Where the sessions are kept, as a person names it (a data dir, a database). */
  readonly location: string;
  /** The projections whose checkpoints the backend keeps (see `JournalLog.checkpoint`). */
  readonly projections: ProjectionRegistry;
  /** Every session, summarized without reading its events. */
  list(): Promise<JournalSummary[]>;
  /** One session's summary as `list` gives it; undefined when there is no such session. */
  summary(sessionId: string): Promise<JournalSummary | undefined>;
  /**
   * Removes a session, recoverably where the backend can (the file backend moves its
   * files to a trash folder): closes its log, ends its tails, reports `removed`, and
   * resolves to where it went. `not_found` for an unknown session, `read_only` for one
   * this host cannot write (a fixture).
   */
  remove(sessionId: string): Promise<string>;
  /** One session's log; `not_found` when there is none, `corrupt` when it cannot be read. */
  open(sessionId: string): Promise<JournalLog>;
  /**
   * Optional: the tail page of a session whose `open`, already begun, must first index a
   * long log (its persisted index is missing or stale), read without that index and
   * without baselines (`baselinePending`), so the first page does not wait for the
   * index. Undefined when the open is quick: the caller waits for it and pages the log.
   */
  tailWhileOpening?(sessionId: string, maxMessages: number): Promise<JournalPage | undefined>;
  /** Creates a session with an empty log; `exists` for a taken id, `not_found` for a missing parent. */
  create(init: CreateJournal): Promise<JournalLog>;
  /**
   * Changes to the set of sessions, in batches: `added` for a created session, `updated`
   * for an appended one (several appends may report once), `removed` for a removed one. The first batch, possibly
   * empty, comes once the watch is live: every change after it is reported. Ends when
   * `signal` aborts or the backend closes.
   */
  watch(options: LiveOptions): AsyncIterable<readonly StoreChange[]>;
  /**
   * Waits for pending appends, then closes every log and ends every tail and watch; later
   * appends fail with `read_only`. A second call does nothing.
   */
  close(): Promise<void>;
}

/** One session's log in a backend: events 0..length-1, appended at the end only. */
export interface JournalLog {
  readonly header: JournalHeader;
  /** True when this host cannot append (appends fail with `read_only`, naming why). */
  readonly readOnly: boolean;
  /** The current end: durable events and the time of the last one. */
  head(): Promise<JournalHead>;
  /**
   * Appends events at `options.expectedSeq`, which must be the log's end including the
   * appends it already accepted and has not finished: otherwise `conflict`, with nothing
   * written (another writer got there first). Resolves once the events are durable; a
   * failed write rejects it and every append accepted after it, and their seqs are free
   * again. Validates `times` and the line limit before anything is written.
   */
  append(payloads: readonly EventPayload[], options: LogAppendOptions): Promise<SessionEvent[]>;
  /**
   * Durable events with from <= seq < to, in order (`invalid_argument` outside 0..length);
   * see `LogReadOptions` for the byte bound and the projection-only decoding.
   */
  read(from: number, to: number, options?: LogReadOptions): Promise<SessionEvent[]>;
  /** Bytes of the encoded events [from, to) a read serves: what bounds a page's size. */
  bytes(from: number, to: number): Promise<number>;
  /**
   * Seqs of the last `query.last` message starts (user and assistant messages) below
   * `query.before`, ascending: a page's candidate starts, found without a scan.
   */
  messageStarts(query: MessageStartsQuery): Promise<number[]>;
  /**
   * The latest projection checkpoint at or below `seq`: the states of `projections` after
   * the events before its seq, at most 255 events below `seq`, so a baseline folds little.
   */
  checkpoint(seq: number): Promise<ProjectionCheckpoint>;
  /**
   * The live tail from seq `from`: batches of durable events in seq order, contiguous
   * across batches. The first batch, possibly empty, comes once the tail is live: every
   * event appended after it is in a later batch (or in it). Events already durable then
   * may be left out or repeated; `Journal.follow` reads those and drops repeats. Ends when
   * `signal` aborts or the backend closes, releasing everything it held.
   */
  tail(from: number, options: LiveOptions): AsyncIterable<readonly SessionEvent[]>;
  /** Tails open on this log in this process (tests check for leaks). */
  readonly tailCount: number;
}

/** The end of a log. */
export interface JournalHead {
  /** Number of durable events: the seq the next append names. */
  readonly length: number;
  /** Time of the last event (by seq), or the creation time for an empty log. */
  readonly updatedAt: Date;
}

/** Options of `JournalLog.append`. */
export interface LogAppendOptions extends AppendOptions {
  /** The seq the first payload gets: the end as the writer knows it. */
  readonly expectedSeq: number;
}

/** Options of `JournalLog.read`; `maxBytes` counts the way `JournalLog.bytes` does. */
export interface LogReadOptions extends ReadOptions {
  /**
   * `'projections'`: only the events some projection reads (`projections.reads`), decoded
   * in just the payload fields it reads, others left out: what a baseline fold needs, at
   * a fraction of the decoding cost.
   */
  readonly fields?: 'all' | 'projections';
}

/** A range of message starts: the last `last` of them below seq `before`. */
export interface MessageStartsQuery {
  readonly before: number;
  readonly last: number;
}

/** Projection states at a seq: after events 0..seq-1. */
export interface ProjectionCheckpoint {
  readonly seq: number;
  readonly states: ProjectionStates;
}

/** Options of the live iterables (`tail`, `watch`). */
export interface LiveOptions {
  readonly signal: AbortSignal;
}

/**
 * What a session list shows of a session without opening its events. The file backend
 * fills the header facts and the end; a backend that keeps a catalog also keeps the
 * title and model current and fills the counts and totals.
 */
export interface JournalSummary {
  readonly header: JournalHeader;
  readonly readOnly: boolean;
  readonly length: number;
  /** Time of the last event, or the creation time for an empty session. */
  readonly updatedAt: Date;
  /** Set when the journal cannot be read; the session still lists, with this reason. */
  readonly error: string | undefined;
  /** The title a list shows: the header's, or one a catalog keeps (a first prompt, a rename). */
  readonly title: string;
  /** The model a list shows: the header's, or the latest one a catalog saw in use. */
  readonly model: string;
  /** Approvals and questions waiting for an answer, when the backend keeps them. */
  readonly pending?: number;
  /** Token usage totals, when the backend keeps them. */
  readonly usage?: TokenUsageState;
  /** True when the latest `session/archived` archived it, when the backend keeps it. */
  readonly archived?: boolean;
  /**
   * Inputs waiting in the session's queue, when the backend knows them without opening
   * the journal; undefined means unknown (open it to see).
   */
  readonly waiting?: number;
}

/** A change to the set of sessions. */
export type StoreChange =
  | { kind: 'added'; sessionId: string }
  | { kind: 'updated'; sessionId: string }
  | { kind: 'removed'; sessionId: string };
