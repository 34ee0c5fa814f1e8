import type { SessionEvent } from '@dsh/gen/events';
import type { Baseline } from '@dsh/gen/service';
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
  | 'no_space' // the disk holding the data dir is full
  | 'unavailable' // any other I/O failure of the data dir (EIO, too many open files...)
  | 'too_large'; // an event whose journal line would pass the line limit

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

/** Receives events after they are durable, in seq order, contiguous across calls. */
export type JournalListener = (events: readonly SessionEvent[]) => void;

/** One session's journal, open. */
export interface Journal {
  readonly header: JournalHeader;
  readonly readOnly: boolean;
  /** Number of events; the next seq to be assigned. */
  readonly length: number;
  /** Time of the last event (by seq), or the creation time for an empty journal. */
  readonly updatedAt: Date;
  /**
   * Appends events, assigning contiguous seqs and the current time (or `options.times`,
   * kept as given even when not ascending), and resolves once they are on disk
   * (fdatasync). Listeners are notified after that, in seq order. Bad `times` (a length
   * other than the payloads', an invalid or out-of-range date) reject with
   * `invalid_argument` before anything is written.
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
  /** Registers a listener for appended events; returns the function that removes it. */
  subscribe(listener: JournalListener): () => void;
  /** Number of registered listeners (tests check for leaks). */
  readonly listenerCount: number;
}

/** A page as the journal computes it. */
export interface JournalPage {
  readonly events: SessionEvent[];
  readonly hasMore: boolean;
  /** Set on the tail page only. */
  readonly baseline: Baseline | undefined;
}

/** What the store tells about a session without opening its events. */
export interface JournalSummary {
  readonly header: JournalHeader;
  readonly readOnly: boolean;
  readonly length: number;
  readonly updatedAt: Date;
  /** Set when the journal cannot be read; the session still lists, with this reason. */
  readonly error: string | undefined;
}

/** A change to the set of sessions, for WatchSessions. */
export type StoreChange =
  { kind: 'added'; sessionId: string } | { kind: 'updated'; sessionId: string };

/** Every session under the data dir (writable) and the fixture dirs (read-only). */
export interface JournalStore {
  readonly dataDir: string;
  list(): Promise<JournalSummary[]>;
  /** Opens (or returns the already open) journal; throws JournalError. */
  open(sessionId: string): Promise<Journal>;
  create(init: {
    cwd: string;
    parentId?: string;
    model?: string;
    title?: string;
    sessionId?: string;
    /** Creation time for the header (an import keeps its source's); now when absent. */
    createdAt?: Date;
    /** For an imported session: the agent it comes from (`JournalHeader.origin`). */
    origin?: string;
  }): Promise<Journal>;
  /** Observes created sessions and appends to any open journal. */
  onChange(listener: (change: StoreChange) => void): () => void;
  /** Flushes and closes every open journal. */
  close(): Promise<void>;
}
