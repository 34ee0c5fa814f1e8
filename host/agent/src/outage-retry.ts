import { JournalError } from '@dsh/journal';

/** How long an append keeps retrying through a store outage before the turn gives up. */
export const defaultOutageMs = 60_000;
/** The first wait between retries; it doubles up to `maxBackoffMs`. */
const firstBackoffMs = 100;
const maxBackoffMs = 2_000;

/** Whether `error` is a store that cannot be reached (a database down, an I/O failure). */
export function isOutage(error: unknown): boolean {
  return error instanceof JournalError && error.kind === 'unavailable';
}

/**
 * Runs `work` until it settles with anything but an outage, waiting 100 ms doubling to
 * 2 s between tries; past `boundMs` (unbounded when undefined) the last outage error is
 * thrown. `retried` is true on every try after an outage.
 */
export async function retryThroughOutage<T>(
  work: (retried: boolean) => Promise<T>,
  boundMs: number | undefined,
): Promise<T> {
  const start = performance.now();
  let wait = firstBackoffMs;
  let retried = false;
  for (;;) {
    try {
      return await work(retried);
    } catch (error) {
      if (!isOutage(error)) throw error;
      if (boundMs !== undefined && performance.now() - start + wait > boundMs) throw error;
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, maxBackoffMs);
      retried = true;
    }
  }
}
