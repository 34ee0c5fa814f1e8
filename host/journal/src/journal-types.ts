import type { SessionEvent } from '@dsh/gen/events';
import type { Baseline } from '@dsh/gen/service';
import type { JournalHead, JournalSummary, StoreChange } from './journal-backend.js';
import type { JournalHeader } from './journal-header.js';

/** The payload of an event to append; the journal assigns seq and time. */
export type EventPayload = SessionEvent['payload'];

/** Options of `Journal.append`. */
export interface AppendOptions {
  /**
   * The time of each event, one per payload, in years 0001..9999 (an import keeps the
   * source's times); without it every event gets the current time.
   */
  readonly times?: readonly Date[];
}

/** Options of `Journal.read`. */
export interface ReadOptions {
  /** Stop after this many bytes of journal lines (at least one event is read). */
  readonly maxBytes?: number;
}

/** Why a journal operation failed; the server maps each kind to one Connect code. */
export type JournalErrorKind =
  | 'invalid_argument' // bad session id, seq out of range, bad page size
  | 'not_found' // no such session
  | 'corrupt' // the file cannot be read (a bad middle line, a bad header)
  | 'read_only' // an append to a fixture, a closed journal or a read-only data dir
  | 'exists' // create with an id that is taken
  | 'conflict' // an append named a seq another writer took first
  | 'no_space' // the disk holding the data dir is full
  | 'unavailable' // any other I/O failure of the data dir (EIO, too many open files...)
  | 'too_large' // an event whose journal line would pass the line limit
  | 'too_slow'; // a follower that fell too far behind the live events

/** The one error type of the journal boundary. */
export class JournalError extends Error {
  override readonly name = 'JournalError';
  constructor(
    readonly kind: JournalErrorKind,
    message: string,
    /** For `corrupt`: the session and 1-based file line at fault (0 = whole file). */
    readonly detail?: { sessionId: string; line: number },
  ) {
    super(message);
  }
}

/** Options of `Journal.follow`. */
export interface FollowOptions {
  /** Live events a follow may hold untaken before it fails with `too_slow`. */
  readonly queueLimit: number;
  /** Most events per catch-up read. */
  readonly readChunk: number;
  /** Most bytes of journal lines per catch-up read (at least one event is read). */
  readonly readChunkBytes: number;
  /** Ends the follow and releases its tail, queue and chunk at once. */
  readonly signal: AbortSignal;
}

/**
 * A follow of one journal from a seq on: catch-up reads, then live events, contiguous and
 * each exactly once. It holds at most one catch-up chunk and `queueLimit` live events.
 * Iterated with `for await`, it ends when it is closed or aborted or the journal closes.
 */
export interface JournalFollow extends AsyncIterable<readonly SessionEvent[]> {
  /** The journal's length when the follow started listening (its tail was live). */
  readonly length: number;
  /**
   * The next events in seq order (never empty), waiting for appends when there are none.
   * Rejects with `too_slow` once the reader fell `queueLimit` live events behind, and
   * with the abort reason once the signal aborted.
   */
  next(): Promise<readonly SessionEvent[]>;
  /**
   * What `next()` would do now, without waiting: the live events it would resolve with
   * (never empty), `'wait'` when it would wait for an append, `'read'` when a catch-up
   * read is due (call `next()`). Throws what `next()` would reject with.
   */
  poll(): readonly SessionEvent[] | 'wait' | 'read';
  /**
   * Calls `wake` once, synchronously, at the next change that `poll()` may see: an
   * append, the end of the journal, the abort. A later call replaces an earlier `wake`.
   */
  notify(wake: () => void): void;
  /** Ends the follow at once, releasing its tail and queue (as an abort of its signal does). */
  close(): void;
}

/**
 * One session's journal, open, as the agent, the importers and the server use it: the
 * storage of a `JournalLog` with the page cut, the tail-page baseline and follow's
 * catch-up and de-duplication on top, the same for every backend.
 */
export interface Journal {
  readonly header: JournalHeader;
  /** True when this host cannot append to it (appends fail with `read_only`). */
  readonly readOnly: boolean;
  /**
   * Events known to be durable: the length when opened, advanced by this journal's own
   * appends and by `head()`. Exact for the one writer of a session; a reader that must
   * see other writers' appends asks `head()`.
   */
  readonly length: number;
  /** Time of the last known event (by seq), or the creation time for an empty journal. */
  readonly updatedAt: Date;
  /** The store's current end, asked of the backend. */
  head(): Promise<JournalHead>;
  /** What a session list shows of this journal, as of `head()`. */
  summary(): Promise<JournalSummary>;
  /**
   * Appends events at the end this journal expects (its `length` plus the appends still
   * being written), with the current time (or `options.times`, kept as given even when not
   * ascending), and resolves once they are durable. Bad `times` reject with
   * `invalid_argument` before anything is written; an end another writer moved rejects
   * with `conflict`.
   */
  append(payloads: readonly EventPayload[], options?: AppendOptions): Promise<SessionEvent[]>;
  /**
   * Events with from <= seq < to, in order; cost O(to - from). With `maxBytes`, the
   * read stops early at the last event whose journal line still fits in that many
   * bytes (always at least one event when from < to), so a caller can bound memory.
   */
  read(from: number, to: number, options?: ReadOptions): Promise<SessionEvent[]>;
  /** The message-aligned page ending before `beforeSeq` (tail when undefined). */
  page(beforeSeq: number | undefined, maxMessages: number): Promise<JournalPage>;
  /**
   * Follows the journal from seq `from` (at most its length): resolves once its tail is
   * live, so nothing appended after that is missed.
   */
  follow(from: number, options: FollowOptions): Promise<JournalFollow>;
  /**
   * Follows open on this journal in this process; with none, the live tails its log still
   * holds (tests check both for leaks).
   */
  readonly tailCount: number;
}

/** A page as the journal computes it. */
export interface JournalPage {
  readonly events: SessionEvent[];
  readonly hasMore: boolean;
  /** Set on the tail page only. */
  readonly baseline: Baseline | undefined;
  /** Set on the tail page only: the state after its last event. */
  readonly endBaseline?: Baseline | undefined;
  /**
   * True on a tail page read while the session's index is being built: the baselines
   * are absent and come with a later tail page (`JournalBackend.tailWhileOpening`).
   */
  readonly baselinePending?: boolean;
}

/** What creating a session takes. */
export interface CreateJournal {
  readonly cwd: string;
  readonly parentId?: string;
  readonly model?: string;
  readonly title?: string;
  /** The id to take; a generated one when absent. */
  readonly sessionId?: string;
  /** Creation time for the header (an import keeps its source's); now when absent. */
  readonly createdAt?: Date;
  /** For an imported session: the agent it comes from (`JournalHeader.origin`). */
  readonly origin?: string;
}

/** Every session of one backend, as the agent, the importers and the server use them. */
export interface JournalStore {
  /** Where the sessions are kept, as a person names it (a data dir, a database). */
  readonly location: string;
  list(): Promise<JournalSummary[]>;
  /** One session's summary as `list` gives it; undefined when there is no such session. */
  summary(sessionId: string): Promise<JournalSummary | undefined>;
  /**
   * Removes a session (the file backend moves it to its trash folder) and resolves to
   * where it went; later opens are `not_found`. See `JournalBackend.remove`.
   */
  remove(sessionId: string): Promise<string>;
  /** Opens (or returns the already open) journal; throws JournalError. */
  open(sessionId: string): Promise<Journal>;
  /**
   * A page of a session (`Journal.page`), opening it first. While that open indexes a
   * long journal with no usable index, the tail page is read backwards from the end
   * instead, with `baselinePending` (see `JournalBackend.tailWhileOpening`).
   */
  page(sessionId: string, beforeSeq: number | undefined, maxMessages: number): Promise<JournalPage>;
  create(init: CreateJournal): Promise<Journal>;
  /**
   * Changes to the set of sessions (created, appended to, removed), in batches; the first batch,
   * possibly empty, comes once the watch is live, so a list read after it misses nothing.
   */
  watch(options: { readonly signal: AbortSignal }): AsyncIterable<readonly StoreChange[]>;
  /** Flushes and closes every open journal. */
  close(): Promise<void>;
}
