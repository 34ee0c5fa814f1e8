import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import { FollowResponseSchema, type FollowResponse } from '@dsh/gen/service';
import { JournalError, type Journal } from '@dsh/journal';
import { abortable, createWaker } from './abortable.js';

/** Tuning of a follow stream. */
export interface FollowOptions {
  /** Idle time after which a heartbeat frame is sent. */
  readonly heartbeatMs: number;
  /** Live events a stream may hold unsent before it is closed with `resource_exhausted`. */
  readonly queueLimit: number;
  /** Events per catch-up read. */
  readonly readChunk: number;
}

/** Defaults: a heartbeat after 5 s of idleness, 10,000 queued events, 1,000-event reads. */
export const defaultFollowOptions: FollowOptions = {
  heartbeatMs: 5_000,
  queueLimit: 10_000,
  readChunk: 1_000,
};

/**
 * The frames of one follow stream: the opening cursor, then every event from
 * `afterSeq + 1` (or seq 0 when it is absent) on, contiguous and each exactly once, with a
 * heartbeat whenever it is idle for `heartbeatMs`. The listener is registered before
 * the catch-up read and live events are de-duplicated by seq, so nothing appended
 * meanwhile is lost or repeated. It ends only by error: `canceled` when `signal`
 * aborts, `resource_exhausted` when the reader falls `queueLimit` events behind. The
 * listener is removed however it ends.
 */
export async function* follow(
  journal: Journal,
  afterSeq: number | undefined,
  options: FollowOptions,
  signal: AbortSignal,
): AsyncGenerator<FollowResponse, void, undefined> {
  const waker = createWaker(signal);
  // Live events not yet sent: queue[head..]. Compacted as it drains.
  let queue: SessionEvent[] = [];
  let head = 0;
  let overflow = false;
  const unsubscribe = journal.subscribe((events) => {
    if (overflow) return;
    for (const event of events) queue.push(event);
    if (queue.length - head > options.queueLimit) {
      overflow = true;
      queue = [];
      head = 0;
    }
    waker.wake();
  });
  try {
    const length = journal.length;
    if (afterSeq !== undefined && afterSeq >= length) {
      throw new JournalError(
        'invalid_argument',
        `after_seq ${afterSeq} is past the end of session ${journal.header.sessionId}: it has ` +
          `${length} events${length > 0 ? ` (last seq ${length - 1})` : ''}; ` +
          'follow with a smaller after_seq, or without it to start at seq 0',
      );
    }
    let next = afterSeq === undefined ? 0 : afterSeq + 1;
    yield frame({
      case: 'opening',
      value: { firstSeq: next, lastSeq: length > 0 ? length - 1 : undefined },
    });
    for (;;) {
      if (overflow) throw tooSlow(next, options.queueLimit);
      const first = queue[head];
      // Catch up from disk up to the first queued event (or the end known at open).
      const until = first === undefined ? length : first.seq;
      if (next < until) {
        const to = Math.min(until, next + options.readChunk);
        for (const event of await abortable(journal.read(next, to), signal)) {
          yield frame({ case: 'event', value: { event } });
          next = event.seq + 1;
        }
        continue;
      }
      if (first === undefined) {
        if (!(await waker.wait(options.heartbeatMs))) {
          yield frame({ case: 'heartbeat', value: { time: timestampNow() } });
        }
        continue;
      }
      head += 1;
      if (head >= 1024 && head * 2 >= queue.length) {
        queue = queue.slice(head);
        head = 0;
      }
      if (first.seq < next) continue;
      yield frame({ case: 'event', value: { event: first } });
      next = first.seq + 1;
    }
  } finally {
    unsubscribe();
  }
}

function frame(value: MessageInitShape<typeof FollowResponseSchema>['frame']): FollowResponse {
  return create(FollowResponseSchema, { frame: value });
}

function tooSlow(next: number, limit: number): ConnectError {
  const resume = next > 0 ? `reconnect with after_seq=${next - 1}` : 'reconnect without after_seq';
  return new ConnectError(
    `follower too slow: more than ${limit} events waited for this stream; ${resume}`,
    Code.ResourceExhausted,
  );
}
