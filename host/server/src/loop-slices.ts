/** A clock in milliseconds (`performance.now` outside tests). */
export type Clock = () => number;

/** Shares the event loop between response writers and everything else the host does. */
export interface LoopSlices {
  /**
   * Undefined while the current slice of the loop has time left; once it is used up, a
   * promise that resolves in a later turn of the loop, after its I/O has been served.
   * Writers resume in the order they waited.
   */
  pause(): Promise<void> | undefined;
}

/**
 * Creates loop slices of `sliceMs`: writers call `pause()` after each chunk they flush
 * without waiting, and all of them together run at most about `sliceMs` (plus one chunk
 * each when they resume) before the loop gets to timers and I/O again. A write that
 * flushes at once completes within microtasks and ticks, so without this, fanning a burst
 * out to hundreds of streams whose sockets take every byte (HTTP/1.1 into a kernel buffer
 * of megabytes) runs in one turn of the loop, and every other request waits for all of it.
 */
export function createLoopSlices(
  sliceMs: number,
  now: Clock = () => performance.now(),
): LoopSlices {
  let sliceStart: number | undefined;
  let waiting: (() => void)[] = [];
  const nextSlice = (): void => {
    sliceStart = undefined;
    const resume = waiting;
    waiting = [];
    for (const resolve of resume) resolve();
  };
  return {
    pause() {
      const time = now();
      if (sliceStart === undefined) {
        // A slice lasts until the loop's next check phase, where the waiting writers resume.
        sliceStart = time;
        setImmediate(nextSlice);
      }
      if (time - sliceStart < sliceMs) return undefined;
      return new Promise<void>((resolve) => waiting.push(resolve));
    },
  };
}
