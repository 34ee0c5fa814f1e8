/**
 * How long a retry waits: `initialMs * factor^(attempt - 1)`, capped at `maxMs`, less a
 * random share of up to `jitter` of it.
 */
export interface BackoffOptions {
  readonly initialMs: number;
  readonly maxMs: number;
  readonly factor: number;
  /**
   * The most of each delay (0 to 1) taken off at random, so callers that failed together
   * do not retry together; 0 or absent waits exactly the exponential delay.
   */
  readonly jitter?: number;
}

/**
 * The delay before retry `attempt` (1-based), in whole milliseconds. Jitter only shortens
 * a delay, so `maxMs` stays the longest wait. `random` gives a number in [0, 1).
 */
export function backoffDelay(
  attempt: number,
  options: BackoffOptions,
  random: () => number = Math.random,
): number {
  const exponent = Math.max(0, attempt - 1);
  const delay = Math.min(options.maxMs, options.initialMs * options.factor ** exponent);
  const jitter = Math.min(1, Math.max(0, options.jitter ?? 0));
  return jitter === 0 ? delay : Math.round(delay * (1 - jitter * random()));
}
