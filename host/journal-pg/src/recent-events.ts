import type { SessionEvent } from '@dsh/gen/events';

/** Most events kept: enough for every caught-up tail of a busy session to share one read. */
const keep = 1024;

/**
 * The latest durable events of one log this process saw (its own commits and what its
 * tails read), contiguous by seq: tails that are caught up take their next batch from
 * here instead of each querying the table.
 */
export class RecentEvents {
  private events: SessionEvent[] = [];
  private start = 0;

  /** The seq after the last kept event (0 when none is kept). */
  get end(): number {
    return this.start + this.events.length;
  }

  /**
   * Keeps durable `events` (in seq order): the part past the end when they reach it,
   * instead of what is kept when they start past it.
   */
  add(events: readonly SessionEvent[]): void {
    const first = events[0];
    if (first === undefined) return;
    const end = this.end;
    if (this.events.length === 0 || first.seq > end) {
      this.events = events.slice(-keep);
      this.start = this.events[0]!.seq;
      return;
    }
    const skip = end - first.seq;
    if (skip >= events.length) return;
    this.events.push(...events.slice(skip));
    const over = this.events.length - keep;
    if (over > 0) {
      this.events = this.events.slice(over);
      this.start += over;
    }
  }

  /** The kept events from `seq` on; undefined when `seq` is outside what is kept. */
  from(seq: number): SessionEvent[] | undefined {
    if (this.events.length === 0 || seq < this.start || seq > this.end) return undefined;
    return this.events.slice(seq - this.start);
  }

  clear(): void {
    this.events = [];
    this.start = 0;
  }
}
