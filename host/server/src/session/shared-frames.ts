import type { UnknownField } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import { encodedEntries } from './binary-wire.js';

/** A run of events and its frame's record. */
interface Run {
  readonly last: SessionEvent;
  readonly batch: boolean;
  readonly record: UnknownField[];
}

/**
 * The binary `FollowResponse` records of the runs of events sent most recently, keyed by
 * the run's first and last event objects. Followers in step (woken by the same append or
 * the same beat of the pacer) send the same run: the first one builds its bytes and the
 * others reuse them. At most `capacity` runs and `maxBytes` bytes are kept, the oldest
 * dropped first.
 */
export class SharedFrames {
  private readonly runs = new Map<SessionEvent, Run[]>();
  private size = 0;
  private bytes = 0;

  constructor(
    private readonly capacity: number,
    private readonly maxBytes: number,
  ) {}

  /**
   * The record of `events[start, end)` for a `FollowResponse`: an `event` frame (field
   * 2) of the one event when `batch` is false, else an `events` frame (field 4).
   */
  record(events: readonly SessionEvent[], start: number, end: number, batch: boolean) {
    const first = events[start]!;
    const last = events[end - 1]!;
    const known = this.runs.get(first)?.find((run) => run.last === last && run.batch === batch);
    if (known !== undefined) return known.record;
    const record = batch
      ? [encodedEntries.nested(4, 1, events.slice(start, end))]
      : encodedEntries.field(2, [first]);
    this.keep(first, { last, batch, record });
    return record;
  }

  private keep(first: SessionEvent, run: Run): void {
    const runs = this.runs.get(first);
    if (runs === undefined) this.runs.set(first, [run]);
    else runs.push(run);
    this.size += 1;
    this.bytes += runBytes(run);
    while (this.size > this.capacity || (this.bytes > this.maxBytes && this.size > 1)) {
      const [oldest, dropped] = this.runs.entries().next().value!;
      this.runs.delete(oldest);
      this.size -= dropped.length;
      for (const gone of dropped) this.bytes -= runBytes(gone);
    }
  }
}

function runBytes(run: Run): number {
  return run.record.reduce((sum, field) => sum + field.data.length, 0);
}
