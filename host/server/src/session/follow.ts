import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import type { SessionEvent } from '@dsh/gen/events';
import { FollowResponseSchema, type FollowResponse } from '@dsh/gen/service';
import { JournalError, lineLength, type Journal, type JournalFollow } from '@dsh/journal';
import { abortable, canceled } from './abortable.js';
import { withEncoded } from './binary-wire.js';
import { SharedFrames } from './shared-frames.js';
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
 * `afterSeq + 1` (or seq 0 when it is absent) on, as `Journal.follow` delivers them
 * (contiguous, each exactly once, catch-up in bounded chunks): one `event` frame each,
 * or `events` frames of what is ready at once when the request sets `maxBatchEvents`
 * above 1 (see `batchEnd`), waiting for `pace()` between live frames then; a heartbeat
 * whenever it is idle for `heartbeatMs`. It ends only by error: `canceled` when `signal` aborts,
 * `resource_exhausted` (`too_slow`) when the reader falls `queueLimit` events behind. The
 * follow and the events being sent are released the moment `signal` aborts, even while
 * the generator is suspended on a blocked write.
 */
export async function* follow(
  journal: Journal,
  request: FollowFrom,
  options: FollowOptions,
  signal: AbortSignal,
  { counter, pace, binary = false }: FollowExtras = {},
): AsyncGenerator<FollowResponse, void, undefined> {
  // The events being sent, dropped at once on abort.
  let sending: readonly SessionEvent[] = [];
  const { following, maxBatch, release } = await openFollow(
    journal,
    request,
    options,
    signal,
    counter,
    () => (sending = []),
  );
  try {
    yield openingFrame(journal, following, request.afterSeq);
    let next: Promise<readonly SessionEvent[]> | undefined;
    for (;;) {
      next ??= following.next();
      const events = await abortable(idleOrNext(next, options.heartbeatMs), signal);
      if (events === undefined) {
        yield heartbeatFrame();
        continue;
      }
      next = undefined;
      sending = events;
      for (let i = 0; i < sending.length;) {
        const end = batchEnd(sending, i, maxBatch);
        yield binary
          ? encodedFrame(sending, i, end, maxBatch)
          : plainFrame(sending, i, end, maxBatch);
        if (signal.aborted) throw canceled(signal);
        i = end;
      }
      sending = [];
      // A busy host lets a batching follower's next events gather into one frame.
      const beat = maxBatch > 1 ? pace?.() : undefined;
      if (beat !== undefined) await abortable(beat, signal);
    }
  } finally {
    release();
  }
}

/** A journal follow opened for one stream (`openFollow`). */
export interface OpenedFollow {
  readonly following: JournalFollow;
  /** The events of one frame at most: `max_batch_events`, capped at `maxBatchEvents`. */
  readonly maxBatch: number;
  /** Closes the follow once; run at `signal`'s abort, and by the stream when it ends. */
  release(): void;
}

/**
 * Opens the journal follow of a Follow request (from `afterSeq + 1`, or seq 0) and counts
 * it in `counter` until it is released: the moment `signal` aborts, even while the
 * stream is suspended on a blocked write, or when the stream calls `release`.
 * `onRelease` drops what the stream holds.
 */
export async function openFollow(
  journal: Journal,
  request: FollowFrom,
  options: FollowOptions,
  signal: AbortSignal,
  counter: StreamCounter | undefined,
  onRelease?: () => void,
): Promise<OpenedFollow> {
  const { afterSeq } = request;
  const maxBatch = Math.min(request.maxBatchEvents ?? 0, maxBatchEvents);
  const from = afterSeq === undefined ? 0 : afterSeq + 1;
  const following = await abortable(journal.follow(from, { ...options, signal }), signal);
  counter?.opened('follow');
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    signal.removeEventListener('abort', release);
    following.close();
    onRelease?.();
    counter?.closed('follow');
  };
  signal.addEventListener('abort', release, { once: true });
  return { following, maxBatch, release };
}

/**
 * The first frame of a follow from `afterSeq + 1` (seq 0 when absent), or the
 * `invalid_argument` error of an `afterSeq` past the journal's end.
 */
export function openingFrame(
  journal: Journal,
  following: JournalFollow,
  afterSeq: number | undefined,
): FollowResponse {
  const { length } = following;
  if (afterSeq !== undefined && afterSeq >= length) {
    throw new JournalError(
      'invalid_argument',
      `after_seq ${afterSeq} is past the end of session ${journal.header.sessionId}: it has ` +
        `${length} events${length > 0 ? ` (last seq ${length - 1})` : ''}; ` +
        'follow with a smaller after_seq, or without it to start at seq 0',
    );
  }
  const firstSeq = afterSeq === undefined ? 0 : afterSeq + 1;
  return frame({
    case: 'opening',
    value: { firstSeq, lastSeq: length > 0 ? length - 1 : undefined },
  });
}

/** What a follow stream counts itself in, how it paces, and how its frames travel. */
export interface FollowExtras {
  readonly counter?: StreamCounter | undefined;
  /** Undefined, or the shared beat a batching stream waits for before its next live frame. */
  readonly pace?: (() => Promise<void> | undefined) | undefined;
  /**
   * The stream travels in the protobuf binary format: each event's bytes are encoded
   * once and shared by every follower (`encodedEntries`), instead of once per follower.
   */
  readonly binary?: boolean | undefined;
}

/** Where a follow starts and how it batches: the fields of a `FollowRequest`. */
export interface FollowFrom {
  readonly afterSeq?: number | undefined;
  /** Above 1: up to this many events (capped at `maxBatchEvents`) per `events` frame. */
  readonly maxBatchEvents?: number | undefined;
}

/** The most events of one `events` frame, whatever the client asks. */
export const maxBatchEvents = 1_000;

/**
 * About the most journal-line characters of one `events` frame; an event whose line
 * length is unknown counts as this much, so it travels alone.
 */
export const batchChars = 256 * 1024;

/**
 * The end (exclusive) of the batch that starts at `start`: at least one event, at most
 * `maxBatch`, and no more journal-line characters than `batchChars` after the first.
 */
export function batchEnd(events: readonly SessionEvent[], start: number, maxBatch: number): number {
  let end = start + 1;
  let chars = lineLength(events[start]!) ?? batchChars;
  while (end < events.length && end - start < maxBatch) {
    chars += lineLength(events[end]!) ?? batchChars;
    if (chars > batchChars) break;
    end += 1;
  }
  return end;
}

/** The frame of `events[start, end)`: an `event` frame when the stream does not batch. */
function plainFrame(
  events: readonly SessionEvent[],
  start: number,
  end: number,
  maxBatch: number,
): FollowResponse {
  if (maxBatch <= 1) return frame({ case: 'event', value: { event: events[start]! } });
  const entries = events.slice(start, end).map((event) => ({ event }));
  return frame({ case: 'events', value: { events: entries } });
}

/** The frames of binary followers, shared by those in step (64 runs, at most 16 MiB). */
const sharedFrames = new SharedFrames(64, 16 * 1024 * 1024);

/**
 * The frame of `events[start, end)` from each event's shared binary encoding, itself
 * shared with the followers that send the same run: an `event` frame when the stream
 * does not batch, else an `events` frame.
 */
export function encodedFrame(
  events: readonly SessionEvent[],
  start: number,
  end: number,
  maxBatch: number,
): FollowResponse {
  return withEncoded(frame(undefined), sharedFrames.record(events, start, end, maxBatch > 1));
}

/** A heartbeat frame, stamped now. */
export const heartbeatFrame = (): FollowResponse =>
  frame({ case: 'heartbeat', value: { time: timestampNow() } });

/** `next`'s events, or undefined when none came within `idleMs`. */
function idleOrNext(
  next: Promise<readonly SessionEvent[]>,
  idleMs: number,
): Promise<readonly SessionEvent[] | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const idle = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), idleMs);
  });
  return Promise.race([next, idle]).finally(() => clearTimeout(timer));
}

function frame(
  value: MessageInitShape<typeof FollowResponseSchema>['frame'] | undefined,
): FollowResponse {
  return create(FollowResponseSchema, value === undefined ? {} : { frame: value });
}
