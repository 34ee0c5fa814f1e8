import type { SessionEvent } from '@dsh/gen/events';
import type {
  EventPayload,
  JournalHead,
  JournalHeader,
  JournalLog,
  LiveOptions,
  LogAppendOptions,
  LogReadOptions,
  MessageStartsQuery,
  ProjectionCheckpoint,
} from '@dsh/journal';
import { JournalError } from '@dsh/journal';
import type { FileJournal } from './file-journal.js';

/** Opens a session's journal file again after the pool closed it. */
export type Reopen = (sessionId: string) => Promise<FileJournal>;

/**
 * The open journal files of a backend, at most `cap` of them when they can be closed: a
 * journal is closed when it is the least recently used one past the cap and nothing
 * holds it (no read, append or tail in progress, no append waiting to be written). A
 * session with followers or a running turn (whose appends keep it recent and busy)
 * therefore stays open, so more than `cap` can be open at once while that many are busy.
 */
export class JournalPool {
  /** Logs whose file is open, least recently used first. */
  private readonly live = new Map<string, PooledLog>();
  /** Journals closed because the pool was full (tests and the bench read it). */
  evictions = 0;

  constructor(
    readonly cap: number,
    private readonly reopen: Reopen,
  ) {}

  /** The log over a freshly opened journal file. */
  adopt(sessionId: string, journal: FileJournal): PooledLog {
    const log = new PooledLog(this, sessionId, journal);
    this.used(log);
    return log;
  }

  /** Journal files open now. */
  get openCount(): number {
    return this.live.size;
  }

  /** Whether a writable journal of `sessionId` is open here: its appends come from this process. */
  writes(sessionId: string): boolean {
    const log = this.live.get(sessionId);
    return log !== undefined && !log.readOnly;
  }

  /** Marks `log` most recently used, then closes idle journals past the cap. */
  used(log: PooledLog): void {
    this.live.delete(log.sessionId);
    if (log.current !== undefined) this.live.set(log.sessionId, log);
    if (this.live.size <= this.cap) return;
    for (const candidate of this.live.values()) {
      if (this.live.size <= this.cap) break;
      if (candidate !== log && candidate.idle) {
        this.live.delete(candidate.sessionId);
        this.evictions += 1;
        void candidate.release();
      }
    }
  }

  /** Forgets `log` (closed for good: shutdown or delete). */
  forget(log: PooledLog): void {
    if (this.live.get(log.sessionId) === log) this.live.delete(log.sessionId);
  }

  /** Opens the file of an evicted log again. */
  open(sessionId: string): Promise<FileJournal> {
    return this.reopen(sessionId);
  }
}

/**
 * A session's `JournalLog` whose file the pool may close while idle and opens again on
 * the next use (a scan of the file), so the store above keeps one log per session
 * however many sessions it has served.
 */
export class PooledLog implements JournalLog {
  readonly header: JournalHeader;
  current: FileJournal | undefined;
  private opening: Promise<FileJournal> | undefined;
  private closing: Promise<void> | undefined;
  private using = 0;
  private lastReadOnly: boolean;
  private lastEnd: JournalHead;
  /** Set by `close`: the file is not opened again for an append. */
  private closedForGood = false;

  constructor(
    private readonly pool: JournalPool,
    readonly sessionId: string,
    journal: FileJournal,
  ) {
    this.current = journal;
    this.header = journal.header;
    this.lastReadOnly = journal.readOnly;
    this.lastEnd = journal.end;
  }

  get readOnly(): boolean {
    return this.current?.readOnly ?? this.lastReadOnly;
  }

  /** The durable end, known in memory (the last known one while the file is closed). */
  get end(): JournalHead {
    return this.current?.end ?? this.lastEnd;
  }

  get tailCount(): number {
    return this.current?.tailCount ?? 0;
  }

  /** True when nothing holds the file: the pool may close it. */
  get idle(): boolean {
    const journal = this.current;
    return this.using === 0 && journal !== undefined && journal.tailCount === 0 && journal.idle;
  }

  head(): Promise<JournalHead> {
    if (this.current === undefined) return Promise.resolve(this.lastEnd);
    return this.use((j) => j.head());
  }

  append(payloads: readonly EventPayload[], options: LogAppendOptions): Promise<SessionEvent[]> {
    if (this.closedForGood) {
      const reason = `session ${this.sessionId} is closed (the store closed or the session was removed)`;
      return Promise.reject(new JournalError('read_only', reason));
    }
    return this.use((j) => j.append(payloads, options));
  }

  read(from: number, to: number, options?: LogReadOptions): Promise<SessionEvent[]> {
    return this.use((j) => j.read(from, to, options));
  }

  bytes(from: number, to: number): Promise<number> {
    return this.use((j) => j.bytes(from, to));
  }

  messageStarts(query: MessageStartsQuery): Promise<number[]> {
    return this.use((j) => j.messageStarts(query));
  }

  checkpoint(seq: number): Promise<ProjectionCheckpoint> {
    return this.use((j) => j.checkpoint(seq));
  }

  /** Holds the file open for as long as the tail runs. */
  async *tail(from: number, options: LiveOptions): AsyncGenerator<readonly SessionEvent[]> {
    this.using += 1;
    try {
      yield* (await this.acquire()).tail(from, options);
    } finally {
      this.using -= 1;
      this.pool.used(this);
    }
  }

  /** Closes the file for good (shutdown or delete). */
  async close(): Promise<void> {
    this.closedForGood = true;
    this.pool.forget(this);
    await this.closing;
    const journal = this.current ?? (await this.opening?.catch(() => undefined));
    this.current = undefined;
    await journal?.close();
  }

  /** Closes the file until the next use. */
  async release(): Promise<void> {
    const journal = this.current;
    if (journal === undefined) return;
    this.lastEnd = journal.end;
    this.lastReadOnly = journal.readOnly;
    this.current = undefined;
    this.closing = journal.close().finally(() => (this.closing = undefined));
    await this.closing;
  }

  private async use<T>(run: (journal: FileJournal) => Promise<T>): Promise<T> {
    this.using += 1;
    try {
      return await run(await this.acquire());
    } finally {
      this.using -= 1;
      this.pool.used(this);
    }
  }

  private async acquire(): Promise<FileJournal> {
    if (this.current !== undefined) return this.current;
    await this.closing;
    this.opening ??= this.pool
      .open(this.sessionId)
      .then((journal) => {
        this.current = journal;
        return journal;
      })
      .finally(() => (this.opening = undefined));
    return this.opening;
  }
}
