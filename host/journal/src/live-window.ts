import type { SessionEvent } from '@dsh/gen/events';
import type { JournalLog } from './journal-backend.js';

/** One follow's place in a `LiveWindow`. */
export interface WindowReader {
  /** Position (counted over every entry the window ever held) of its next untaken entry. */
  pos: number;
  /** Entries it may leave untaken before it is too slow. */
  readonly limit: number;
  /** Set once it fell more than `limit` entries behind; it no longer holds entries back. */
  overflow: boolean;
  /** Called once, synchronously, at the next push or end. */
  wake: (() => void) | undefined;
}

/** Entries taken by followers in step, kept so that they get the same array. */
interface Taken {
  readonly from: number;
  readonly to: number;
  readonly events: readonly SessionEvent[];
}

/** Entries held before the window looks for ones every reader has passed. */
const trimFloor = 1024;

/**
 * The live events of one log, shared by every follow of it: one tail of the log, its
 * batches kept once in arrival order, and each follow a position in them. An append costs
 * the same however many follow it: it is stored once and wakes only the follows that
 * wait for it. Entries every reader has passed are dropped, and a reader more than its
 * limit behind stops holding them (its follow fails `too_slow`). The tail closes when the
 * last reader leaves, and the window is then done: the next follow opens a new one.
 */
export class LiveWindow {
  private entries: SessionEvent[] = [];
  /** Position of `entries[0]`. */
  private base = 0;
  private trimAt = trimFloor;
  private readonly readers = new Set<WindowReader>();
  private waiting: WindowReader[] = [];
  private readonly stop = new AbortController();
  private live: Promise<void> | undefined;
  private endedBy: { failure: unknown } | undefined;
  private last: Taken | undefined;

  constructor(private readonly log: JournalLog) {}

  /** True once its tail closed: a new follow needs a new window. */
  get done(): boolean {
    return this.stop.signal.aborted;
  }

  /** Follows reading from the window. */
  get count(): number {
    return this.readers.size;
  }

  /** Entries held now (tests check that the window stays bounded). */
  get held(): number {
    return this.entries.length;
  }

  /** The position after the last entry. */
  get end(): number {
    return this.base + this.entries.length;
  }

  /** Whether the tail ended, and by what failure (undefined: the backend closed). */
  get ended(): { failure: unknown } | undefined {
    return this.endedBy;
  }

  /**
   * Adds a reader once the tail is live: it takes every entry pushed from then on (a
   * reader that joins while the tail opens also takes its first batch).
   */
  async join(limit: number): Promise<WindowReader> {
    const reader: WindowReader = { pos: this.end, limit, overflow: false, wake: undefined };
    this.readers.add(reader);
    try {
      await (this.live ??= this.open());
    } catch (error) {
      this.leave(reader);
      throw error;
    }
    return reader;
  }

  /** Removes a reader; the last one closes the tail. */
  leave(reader: WindowReader): void {
    if (!this.readers.delete(reader)) return;
    reader.wake = undefined;
    if (this.readers.size > 0) return;
    this.stop.abort();
    this.entries = [];
    this.waiting = [];
    this.last = undefined;
  }

  /** The entry at `pos`, undefined at the end (or before the window's start). */
  at(pos: number): SessionEvent | undefined {
    return this.entries[pos - this.base];
  }

  /** True when `reader` is more than its limit behind. */
  behind(reader: WindowReader): boolean {
    if (!reader.overflow && this.end - reader.pos > reader.limit) reader.overflow = true;
    return reader.overflow;
  }

  /**
   * The entries from `reader.pos` whose seqs run on from `cursor` without a gap, in seq
   * order, and moves the reader past them (and past repeats below `cursor`). Readers in
   * step get the same array.
   */
  take(reader: WindowReader, cursor: number): readonly SessionEvent[] {
    let pos = reader.pos;
    while (pos < this.end && this.at(pos)!.seq < cursor) pos += 1;
    let to = pos;
    while (to < this.end && this.at(to)!.seq === cursor + (to - pos)) to += 1;
    reader.pos = to;
    if (to === pos) return [];
    const last = this.last;
    if (last !== undefined && last.from === pos && last.to === to) return last.events;
    const events = this.entries.slice(pos - this.base, to - this.base);
    this.last = { from: pos, to, events };
    return events;
  }

  /** Calls `reader.wake` at the next push or end. */
  wait(reader: WindowReader, wake: () => void): void {
    if (reader.wake === undefined) this.waiting.push(reader);
    reader.wake = wake;
  }

  /** Opens the tail; resolves once it is live (its first batch pushed). */
  private async open(): Promise<void> {
    const tail = this.log.tail(0, { signal: this.stop.signal })[Symbol.asyncIterator]();
    try {
      const first = await tail.next();
      if (first.done === true) this.finish(undefined);
      else this.push(first.value);
    } catch (error) {
      this.finish(error);
      throw error;
    }
    void this.pump(tail);
  }

  private push(events: readonly SessionEvent[]): void {
    if (events.length === 0 || this.done) return;
    for (const event of events) this.entries.push(event);
    if (this.entries.length >= this.trimAt) this.trim();
    this.wakeAll();
  }

  private finish(failure: unknown): void {
    this.endedBy ??= { failure };
    this.wakeAll();
  }

  /** Drops the entries every reader within its limit has passed. */
  private trim(): void {
    let keepFrom = this.end;
    for (const reader of this.readers) {
      if (!this.behind(reader)) keepFrom = Math.min(keepFrom, reader.pos);
    }
    if (keepFrom > this.base) {
      this.entries = this.entries.slice(keepFrom - this.base);
      this.base = keepFrom;
    }
    this.trimAt = Math.max(trimFloor, this.entries.length * 2);
  }

  private wakeAll(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const reader of waiting) {
      const wake = reader.wake;
      reader.wake = undefined;
      wake?.();
    }
  }

  private async pump(tail: AsyncIterator<readonly SessionEvent[]>): Promise<void> {
    try {
      for (;;) {
        const batch = await tail.next();
        if (batch.done === true) break;
        this.push(batch.value);
      }
      this.finish(undefined);
    } catch (error) {
      this.finish(this.done ? undefined : error);
    }
  }
}
