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
  const write = async (message: object): Promise<void> => {
    if (!sink.write(message)) await sink.drained();
    const paused = sink.pause();
    if (paused !== undefined) await paused;
  };
  try {
    await write(openingFrame(journal, following, request.afterSeq));
    for (;;) {
      const now = following.poll();
      if (now === 'wait') {
        if ((await liveWait(following, idle)) === 'idle') await write(heartbeatFrame());
        continue;
      }
      const events = now === 'read' ? await following.next() : now;
      await writeEvents(events, maxBatch, write);
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

async function writeEvents(
  events: readonly SessionEvent[],
  maxBatch: number,
  write: (message: object) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < events.length;) {
    const end = batchEnd(events, i, maxBatch);
    await write(encodedFrame(events, i, end, maxBatch));
    i = end;
  }
}
