import type { SessionEvent } from '@dsh/gen/events';
import type { JournalLog } from './journal-backend.js';
import { JournalError, type FollowOptions, type JournalFollow } from './journal-types.js';
import type { LiveWindow, WindowReader } from './live-window.js';

/**
 * Follows `log` from seq `from` through `window`, the live events its follows share:
 * joins it once its tail is live, reads the end, then serves catch-up reads from the
 * backend up to the first live event (one bounded chunk per `next()`, so a slow reader
 * costs one chunk) and the live events after them, dropping repeats by seq and filling
 * any hole with a read. Past `queueLimit` untaken live events the follow fails with
 * `too_slow`. Everything is released when the signal aborts.
 */
export async function followLog(
  log: JournalLog,
  window: LiveWindow,
  from: number,
  options: FollowOptions,
  read: ChunkRead = (start, end, readOptions) => log.read(start, end, readOptions),
): Promise<JournalFollow> {
  options.signal.throwIfAborted();
  const reader = await window.join(options.queueLimit);
  try {
    options.signal.throwIfAborted();
    const { length } = await log.head();
    return new LogFollow(log, window, reader, read, from, length, options);
  } catch (error) {
    window.leave(reader);
    throw error;
  }
}

/** A catch-up read of `[from, to)` (`JournalLog.read`). */
export type ChunkRead = (
  from: number,
  to: number,
  options: { maxBytes: number },
) => Promise<readonly SessionEvent[]>;

class LogFollow implements JournalFollow {
  private readonly stop = new AbortController();
  private wakeUp: (() => void) | undefined;
  private notified: (() => void) | undefined;

  constructor(
    private readonly log: JournalLog,
    private readonly window: LiveWindow,
    private readonly reader: WindowReader,
    private readonly read: ChunkRead,
    /** The next seq to hand out. */
    private cursor: number,
    readonly length: number,
    private readonly options: FollowOptions,
  ) {
    const onAbort = (): void => this.stop.abort(options.signal.reason);
    options.signal.addEventListener('abort', onAbort, { once: true });
    this.stop.signal.addEventListener(
      'abort',
      () => {
        options.signal.removeEventListener('abort', onAbort);
        window.leave(reader);
        this.wake();
      },
      { once: true },
    );
    if (options.signal.aborted) onAbort();
  }

  async next(): Promise<readonly SessionEvent[]> {
    for (;;) {
      const now = this.poll();
      if (now === 'wait') {
        await new Promise<void>((resolve) => {
          this.wakeUp = resolve;
          this.window.wait(this.reader, () => this.wake());
        });
        continue;
      }
      if (now !== 'read') return now;
      // Catch up from the backend up to the first live event (or the end when it went live).
      const until = this.window.at(this.reader.pos)?.seq ?? this.length;
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
      const { window, reader } = this;
      if (window.behind(reader)) throw this.tooSlow();
      const first = window.at(reader.pos);
      const until = first === undefined ? this.length : first.seq;
      if (this.cursor < until) return 'read';
      if (first === undefined) {
        const ended = window.ended;
        if (ended !== undefined) throw ended.failure ?? this.closed();
        return 'wait';
      }
      const taken = window.take(reader, this.cursor);
      if (taken.length > 0) {
        this.cursor += taken.length;
        return taken;
      }
    }
  }

  notify(wake: () => void): void {
    this.notified = wake;
    this.window.wait(this.reader, () => this.wake());
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
        const ended = this.window.ended;
        if (this.stop.signal.aborted || (ended !== undefined && ended.failure === undefined)) {
          return;
        }
        throw error;
      }
    }
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
