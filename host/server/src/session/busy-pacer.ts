import { performance } from 'node:perf_hooks';

/** How busy the event loop has been lately, as a pause for streams that can batch. */
export interface BusyPacer {
  /** 0 while the loop has time to spare; up to `maxGapMs` as it nears saturation. */
  gapMs(): number;
  /**
   * Undefined while the loop has time to spare, else the next beat: one timer `gapMs()`
   * from its first waiter, shared by every stream that waits before it fires.
   */
  beat(): Promise<void> | undefined;
  /** Stops sampling. */
  close(): void;
}

/** Event loop utilization below this adds no pause. */
const calmUtilization = 0.85;
/** Up to this utilization the pause stays within `kneeShare` of the longest. */
const kneeUtilization = 0.95;
const kneeShare = 0.25;

/**
 * Samples the event loop's utilization every `periodMs` and turns it into a pause
 * that batching follow streams take between live frames: none while the loop is below
 * 85% busy, at most a quarter of `maxGapMs` up to 95% (a loaded host that keeps up adds
 * little latency), and up to `maxGapMs` as it nears saturation. A saturated host then
 * sends each follower fewer, larger frames (its events wait in the follow's queue and
 * leave together) instead of falling ever further behind one frame per event, and
 * accepts, Page and Prompt keep getting turns of the loop. The streams that pause wake
 * together on one beat, so followers in step take the same events and share their
 * frame's bytes.
 */
export function createBusyPacer(maxGapMs: number, periodMs = 100): BusyPacer {
  let last = performance.eventLoopUtilization();
  let gap = 0;
  let next: Promise<void> | undefined;
  const timer = setInterval(() => {
    const now = performance.eventLoopUtilization();
    gap = pauseFor(performance.eventLoopUtilization(now, last).utilization, maxGapMs);
    last = now;
  }, periodMs);
  timer.unref();
  return {
    gapMs: () => gap,
    beat: () => {
      if (gap === 0) return undefined;
      next ??= new Promise<void>((resolve) =>
        setTimeout(() => {
          next = undefined;
          resolve();
        }, gap).unref(),
      );
      return next;
    },
    close: () => clearInterval(timer),
  };
}

/** The pause for a loop `utilization` (0..1) busy: see `createBusyPacer`. */
export function pauseFor(utilization: number, maxGapMs: number): number {
  if (!(utilization > calmUtilization)) return 0;
  const knee = maxGapMs * kneeShare;
  if (utilization <= kneeUtilization) {
    const share = (utilization - calmUtilization) / (kneeUtilization - calmUtilization);
    return Math.round(share * knee);
  }
  const busy = Math.min(1, (utilization - kneeUtilization) / (1 - kneeUtilization));
  return Math.round(knee + busy * (maxGapMs - knee));
}
