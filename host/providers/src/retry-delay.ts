/**
 * How long to wait before retry `attempt` (1-based): the server's `Retry-After` (seconds
 * or an HTTP date) when it sent one, else exponential backoff from `baseMs`; at most `maxMs`.
 */
export function retryDelay(
  attempt: number,
  retryAfter: string | null,
  baseMs: number,
  maxMs: number,
  now = Date.now(),
): number {
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds) && seconds >= 0) return Math.min(seconds * 1000, maxMs);
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.min(Math.max(0, date - now), maxMs);
  }
  return Math.min(baseMs * 2 ** (attempt - 1), maxMs);
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
