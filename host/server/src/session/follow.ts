import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import { Code, ConnectError } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import { FollowResponseSchema, type FollowResponse } from '@dsh/gen/service';
import { JournalError, type Journal } from '@dsh/journal';
import { abortable, canceled, createWaker } from './abortable.js';
import type { StreamCounter } from './stream-counter.js';

/** Tuning of a follow stream. */
export interface FollowOptions {
  /** Idle time after which a heartbeat frame is sent. */
  readonly heartbeatMs: number;
  /** Live events a stream may hold unsent before it is closed with `resource_exhausted`. */
  readonly queueLimit: number;
  /** Most events per catch-up read. */
  readonly readChunk: number;
  /** Most bytes of journal lines per catch-up read (at least one event is read). */
  readonly readChunkBytes: number;
}

/**
 * Defaults: a heartbeat after 5 s of idleness, 10,000 queued events, catch-up reads of
 * at most 1,000 events and 256 KiB, so a stream in catch-up holds one small chunk.
 */
export const defaultFollowOptions: FollowOptions = {
  heartbeatMs: 5_000,
  queueLimit: 10_000,
  readChunk: 1_000,
  readChunkBytes: 256 * 1024,
};

/**
 * The frames of one follow stream: the opening cursor, then every event from
 * `afterSeq + 1` (or seq 0 when it is absent) on, contiguous and each exactly once, with a
 * heartbeat whenever it is idle for `heartbeatMs`. The listener is registered before
 * the catch-up read and live events are de-duplicated by seq, so nothing appended
 * meanwhile is lost or repeated. Catch-up reads one bounded chunk at a time and the
 * next only once the reader took the last, so a slow reader costs one chunk. It ends
 * only by error: `canceled` when `signal` aborts, `resource_exhausted` when the reader
 * falls `queueLimit` events behind. The listener, the queue and the chunk are released
 * the moment `signal` aborts, even while the generator is suspended on a blocked write.
 */
export async function* follow(
  journal: Journal,
  afterSeq: number | undefined,
  options: FollowOptions,
  signal: AbortSignal,
  counter?: StreamCounter,
): AsyncGenerator<FollowResponse, void, undefined> {
  const waker = createWaker(signal);
  // Live events not yet sent: queue[head..]. Compacted as it drains.
  let queue: SessionEvent[] = [];
  let head = 0;
  // The catch-up chunk being sent.
  let chunk: SessionEvent[] = [];
  let overflow = false;
  let released = false;
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
  counter?.opened('follow');
  const release = (): void => {
    if (released) return;
    released = true;
    unsubscribe();
    queue = [];
    chunk = [];
    counter?.closed('follow');
  };
  signal.addEventListener('abort', release, { once: true });
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
      if (signal.aborted) throw canceled(signal);
      if (overflow) throw tooSlow(next, options.queueLimit);
      const first = queue[head];
      // Catch up from disk up to the first queued event (or the end known at open).
      const until = first === undefined ? length : first.seq;
      if (next < until) {
        const to = Math.min(until, next + options.readChunk);
        const maxBytes = options.readChunkBytes;
        chunk = await abortable(journal.read(next, to, { maxBytes }), signal);
        for (let i = 0; i < chunk.length; i += 1) {
          const event = chunk[i]!;
          yield frame({ case: 'event', value: { event } });
          if (signal.aborted) throw canceled(signal);
          next = event.seq + 1;
        }
        chunk = [];
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
    signal.removeEventListener('abort', release);
    release();
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
