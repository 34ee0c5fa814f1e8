import { backoffDelay } from '@dsh/backoff';

/** The share of a backoff delay taken off at random, so requests that failed together spread out. */
const retryJitter = 0.2;

/**
 * How long to wait before retry `attempt` (1-based): the server's `Retry-After` (seconds
 * or an HTTP date) when it sent one, else exponential backoff from `baseMs` with jitter;
 * at most `maxMs`. `random` gives a number in [0, 1) for the jitter.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | null,
  baseMs: number,
  maxMs: number,
  now = Date.now(),
  random: () => number = Math.random,
): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxMs);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - now), maxMs);
  }
  return backoffDelay(
    attempt,
    { initialMs: baseMs, maxMs, factor: 2, jitter: retryJitter },
    random,
  );
}

/** Waits `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('aborted'));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
