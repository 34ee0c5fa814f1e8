import type { SessionEvent } from '@dsh/gen/events';

/** How much a `RecentEvents` keeps: whichever bound is reached first. */
export interface RecentEventsLimits {
  readonly events: number;
  /** Journal line bytes of the kept events. */
  readonly bytes: number;
}

/**
 * The latest durable events of one journal as the objects its appends made, so the
 * catch-up reads of followers that reconnect near the end (the common case: a crowd
 * resuming after a blip) are slices instead of a file read and a decode per follower.
 * The live tail hands out the same objects, so a follower sees identical events whether
 * they reach it live or by catch-up.
 */
export class RecentEvents {
  private events: SessionEvent[] = [];
  private sizes: number[] = [];
  private bytes = 0;
  /** Seq of `events[0]`. */
  private first = 0;

  constructor(private readonly limits: RecentEventsLimits) {}

  /** Adds events that follow the kept ones; `sizes[i]` is the line length of `events[i]`. */
  push(events: readonly SessionEvent[], sizes: readonly number[]): void {
    const start = events[0]?.seq;
    if (start === undefined) return;
    if (start !== this.first + this.events.length) this.clear(start);
    events.forEach((event, i) => {
      this.events.push(event);
      this.sizes.push(sizes[i] ?? 0);
      this.bytes += sizes[i] ?? 0;
    });
    this.trim();
  }

  /** Events [from, to) when all of them are kept, else undefined. */
  slice(from: number, to: number): SessionEvent[] | undefined {
    if (from < this.first || to > this.first + this.events.length || from >= to) return undefined;
    return this.events.slice(from - this.first, to - this.first);
  }

  /** Forgets everything; the next push starts at `seq`. */
  clear(seq: number): void {
    this.events = [];
    this.sizes = [];
    this.bytes = 0;
    this.first = seq;
  }

  private trim(): void {
    let drop = 0;
    while (
      drop < this.events.length &&
      (this.events.length - drop > this.limits.events || this.bytes > this.limits.bytes)
    ) {
      this.bytes -= this.sizes[drop]!;
      drop += 1;
    }
    if (drop === 0) return;
    this.events = this.events.slice(drop);
    this.sizes = this.sizes.slice(drop);
    this.first += drop;
  }
}
