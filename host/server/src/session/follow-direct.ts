import type { SessionEvent } from '@dsh/gen/events';
import type { FollowRequest } from '@dsh/gen/service';
import type { Journal, JournalFollow } from '@dsh/journal';
import type { FrameSink } from '../direct-stream.js';
import { canceled } from './abortable.js';
import {
  batchEnd,
  encodedFrame,
  heartbeatFrame,
  openFollow,
  openingFrame,
  type FollowExtras,
  type FollowOptions,
} from './follow.js';
import type { IdleTicker } from './idle-ticker.js';

/**
 * The frames of `follow` for a binary Connect client, written straight into `sink`: the
 * opening, every event from `afterSeq + 1` on in shared binary frames, a heartbeat after
 * `heartbeatMs` idle. The same frames as `follow`, with less work per live frame: while it
 * is live, the stream waits on one promise that the follow resolves at the next append
 * (`JournalFollow.notify`) or the shared `idle` ticker at the heartbeat, and takes what is
 * there without waiting (`poll`); no timer, abort listener or generator step per frame.
 * A batching stream waits for `pace()` between live frames. It ends only by error, as
 * `follow` does, and releases the follow the moment `signal` aborts.
 */
export async function followDirect(
  journal: Journal,
  request: Pick<FollowRequest, 'afterSeq' | 'maxBatchEvents'>,
  options: FollowOptions,
  signal: AbortSignal,
  sink: FrameSink,
  idle: IdleTicker,
  { counter, pace }: Omit<FollowExtras, 'binary'> = {},
): Promise<void> {
  const { following, maxBatch, release } = await openFollow(
    journal,
    request,
    options,
    signal,
    counter,
  );
  const flushed = async (taken: boolean): Promise<void> => {
    if (!taken) await sink.drained();
    const paused = sink.pause();
    if (paused !== undefined) await paused;
  };
  const write = (message: object) => flushed(sink.write(message));
  try {
    await write(openingFrame(journal, following, request.afterSeq));
    for (;;) {
      const now = following.poll();
      if (now === 'wait') {
        if ((await liveWait(following, idle)) === 'idle') await write(heartbeatFrame());
        continue;
      }
      const events = now === 'read' ? await following.next() : now;
      for (const chunk of framedEvents(events, maxBatch, sink)) {
        await flushed(sink.writeBytes(chunk));
      }
      if (signal.aborted) throw canceled(signal);
      // A busy host lets a batching follower's next events gather into one frame.
      const beat = maxBatch > 1 ? pace?.() : undefined;
      if (beat !== undefined) await beat;
    }
  } finally {
    release();
  }
}

/** Waits for the follow's next change (`'live'`) or `idle`'s heartbeat time (`'idle'`). */
function liveWait(following: JournalFollow, idle: IdleTicker): Promise<'live' | 'idle'> {
  return new Promise((resolve) => {
    const wait = idle.add(() => resolve('idle'));
    following.notify(() => {
      idle.cancel(wait);
      resolve('live');
    });
  });
}

/** The enveloped frames of event arrays by the batch size and join size they were cut for. */
const framed = new WeakMap<readonly SessionEvent[], Map<string, readonly Uint8Array[]>>();

/**
 * The frames of `events` for a stream batching up to `maxBatch`, enveloped and joined
 * into chunks of about the sink's `joinBytes` (a larger frame alone), so a take costs a
 * follower few writes. Followers in step take the same array (the journal's live window
 * and its shared catch-up reads hand it to all of them), so its chunks are built once
 * and every follower writes the same bytes.
 */
function framedEvents(
  events: readonly SessionEvent[],
  maxBatch: number,
  sink: Pick<FrameSink, 'envelope' | 'joinBytes'>,
): readonly Uint8Array[] {
  const key = `${maxBatch}:${sink.joinBytes}`;
  let byBatch = framed.get(events);
  const known = byBatch?.get(key);
  if (known !== undefined) return known;
  const chunks: Uint8Array[] = [];
  let parts: Uint8Array[] = [];
  let size = 0;
  const join = (): void => {
    if (parts.length > 0) chunks.push(parts.length === 1 ? parts[0]! : Buffer.concat(parts));
    parts = [];
    size = 0;
  };
  for (let i = 0; i < events.length;) {
    const end = batchEnd(events, i, maxBatch);
    const bytes = sink.envelope(encodedFrame(events, i, end, maxBatch));
    if (size + bytes.length > sink.joinBytes) join();
    parts.push(bytes);
    size += bytes.length;
    i = end;
  }
  join();
  if (byBatch === undefined) framed.set(events, (byBatch = new Map()));
  byBatch.set(key, chunks);
  return chunks;
}
