import type { BackoffOptions } from '@dsh/backoff';

/**
 * 250 ms, doubling, at most 5 s, up to a fifth off at random: quick after a blip, gentle
 * on a host that is down, and clients cut off together do not come back together.
 */
export const defaultBackoff: BackoffOptions = {
  initialMs: 250,
  maxMs: 5_000,
  factor: 2,
  jitter: 0.2,
};

/** A wait that `wake()` or an abort ends early. */
export interface Pause {
  /** Waits `ms` (forever when undefined); resolves early on `wake()` or when `signal` aborts. */
  wait(ms: number | undefined, signal: AbortSignal): Promise<void>;
  wake(): void;
}

/** Creates a pause for a reconnect loop, which checks its own state after each wait. */
export function createPause(): Pause {
  let resolveCurrent: (() => void) | undefined;
  return {
    wait(ms, signal) {
      return new Promise<void>((resolve) => {
        if (signal.aborted) {
          resolve();
          return;
        }
        const done = (): void => {
          if (timer !== undefined) clearTimeout(timer);
          signal.removeEventListener('abort', done);
          resolveCurrent = undefined;
          resolve();
        };
        const timer = ms === undefined ? undefined : setTimeout(done, ms);
        signal.addEventListener('abort', done, { once: true });
        resolveCurrent = done;
      });
    },
    wake() {
      resolveCurrent?.();
    },
  };
}
