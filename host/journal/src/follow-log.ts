import type { SessionEvent } from '@dsh/gen/events';
import type { JournalLog } from './journal-backend.js';
import { JournalError, type FollowOptions, type JournalFollow } from './journal-types.js';

/**
 * Follows `log` from seq `from`: opens its tail, waits until it is live, reads the end,
 * then serves catch-up reads from the backend up to the first live event (one bounded
 * chunk per `next()`, so a slow reader costs one chunk) and the live events after them,
 * dropping repeats by seq and filling any hole with a read. Live events are taken off
 * the tail as they come, so the backend never holds them; past `queueLimit` untaken ones
 * the follow fails with `too_slow`. Everything is released when the signal aborts.
 */
export async function followLog(
  log: JournalLog,
  from: number,
  options: FollowOptions,
  read: ChunkRead = (start, end, readOptions) => log.read(start, end, readOptions),
): Promise<JournalFollow> {
  options.signal.throwIfAborted();
  const stop = new AbortController();
  const onAbort = (): void => stop.abort(options.signal.reason);
  options.signal.addEventListener('abort', onAbort, { once: true });
  const tail = log.tail(from, { signal: stop.signal })[Symbol.asyncIterator]();
  try {
    const live = await tail.next();
    const { length } = await log.head();
    const follow = new LogFollow(log, read, from, length, options, stop, tail, onAbort);
    if (live.done !== true) follow.accept(live.value);
    else follow.end(undefined);
    return follow;
  } catch (error) {
    options.signal.removeEventListener('abort', onAbort);
    stop.abort(error);
    throw error;
  }
}

/** A catch-up read of `[from, to)` (`JournalLog.read`). */
export type ChunkRead = (
  from: number,
  to: number,
  options: { maxBytes: number },
) => Promise<SessionEvent[]>;

class LogFollow implements JournalFollow {
  /** Live events not yet taken: queue[head..]. Compacted as it drains. */
  private queue: SessionEvent[] = [];
  private head = 0;
  private overflow = false;
  private ended = false;
  private failure: unknown;
  private wakeUp: (() => void) | undefined;
  private notified: (() => void) | undefined;

  constructor(
    private readonly log: JournalLog,
    private readonly read: ChunkRead,
    /** The next seq to hand out. */
    private cursor: number,
    readonly length: number,
    private readonly options: FollowOptions,
    private readonly stop: AbortController,
    tail: AsyncIterator<readonly SessionEvent[]>,
    onAbort: () => void,
  ) {
    stop.signal.addEventListener(
      'abort',
      () => {
        options.signal.removeEventListener('abort', onAbort);
        this.queue = [];
        this.head = 0;
        this.wake();
      },
      { once: true },
    );
    void this.pump(tail);
  }

  async next(): Promise<readonly SessionEvent[]> {
    for (;;) {
      const now = this.poll();
      if (now === 'wait') {
        await new Promise<void>((resolve) => (this.wakeUp = resolve));
        continue;
      }
      if (now !== 'read') return now;
      // Catch up from the backend up to the first live event (or the end when it went live).
      const first = this.queue[this.head];
      const until = first === undefined ? this.length : first.seq;
      // Chunks end at multiples of `readChunk`, so followers catching up from different
      // seqs meet on the same reads (which the journal may share).
      const { readChunk } = this.options;
      const to = Math.min(until, (Math.floor(this.cursor / readChunk) + 1) * readChunk);
      const maxBytes = this.options.readChunkBytes;
      const chunk = await this.read(this.cursor, to, { maxBytes });
      this.stop.signal.throwIfAborted();
      this.cursor = chunk.at(-1)!.seq + 1;
      return chunk;
    }
  }

  poll(): readonly SessionEvent[] | 'wait' | 'read' {
    for (;;) {
      this.stop.signal.throwIfAborted();
      if (this.overflow) throw this.tooSlow();
      const first = this.queue[this.head];
      const until = first === undefined ? this.length : first.seq;
      if (this.cursor < until) return 'read';
      if (first === undefined) {
        if (this.ended) throw this.failure ?? this.closed();
        return 'wait';
      }
      const taken = this.take();
      if (taken.length > 0) return taken;
    }
  }

  notify(wake: () => void): void {
    this.notified = wake;
  }

  close(): void {
    const { sessionId } = this.log.header;
    this.stop.abort(
      new JournalError('unavailable', `the follow of session ${sessionId} was closed`),
    );
  }

  async *[Symbol.asyncIterator](): AsyncIterator<readonly SessionEvent[]> {
    for (;;) {
      try {
        yield await this.next();
      } catch (error) {
        // Closed, aborted, or the journal closed: the iteration ends; other failures throw.
        if (this.stop.signal.aborted || (this.ended && this.failure === undefined)) return;
        throw error;
      }
    }
  }

  /** Queues live events from the tail; drops them all once the reader is too far behind. */
  accept(events: readonly SessionEvent[]): void {
    if (this.overflow || this.stop.signal.aborted) return;
    for (const event of events) this.queue.push(event);
    if (this.queue.length - this.head > this.options.queueLimit) {
      this.overflow = true;
      this.queue = [];
      this.head = 0;
    }
    this.wake();
  }

  /** The tail ended: by `failure`, or (undefined) because the backend closed. */
  end(failure: unknown): void {
    this.ended = true;
    this.failure ??= failure;
    this.wake();
  }

  private async pump(tail: AsyncIterator<readonly SessionEvent[]>): Promise<void> {
    try {
      for (;;) {
        const batch = await tail.next();
        if (batch.done === true) break;
        this.accept(batch.value);
      }
      this.end(undefined);
    } catch (error) {
      this.end(this.stop.signal.aborted ? undefined : error);
    }
  }

  /** The queued live events from the cursor on, up to the first hole (filled by a read). */
  private take(): SessionEvent[] {
    const taken: SessionEvent[] = [];
    while (this.head < this.queue.length) {
      const event = this.queue[this.head]!;
      if (event.seq > this.cursor) break;
      this.head += 1;
      if (event.seq < this.cursor) continue;
      taken.push(event);
      this.cursor += 1;
    }
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return taken;
  }

  private wake(): void {
    const wakeUp = this.wakeUp;
    this.wakeUp = undefined;
    wakeUp?.();
    const notified = this.notified;
    this.notified = undefined;
    notified?.();
  }

  private tooSlow(): JournalError {
    const resume =
      this.cursor > 0
        ? `reconnect with after_seq=${this.cursor - 1}`
        : 'reconnect without after_seq';
    return new JournalError(
      'too_slow',
      `follower too slow: more than ${this.options.queueLimit} events waited for this stream; ${resume}`,
    );
  }

  private closed(): JournalError {
    return new JournalError(
      'unavailable',
      `session ${this.log.header.sessionId} was closed while it was followed: follow it again`,
    );
  }
}
