/**
 * The lags of a 10 ms timer on this (the host's) event loop while `work` runs: each tick's
 * delay past its due time, in ms. One tick more is taken after `work` ends, so a loop
 * blocked until then shows its whole block as that tick's lag.
 */
export async function lagDuring<T>(
  work: () => Promise<T>,
): Promise<{ value: T; lags: number[]; p99: number; worst: number }> {
  const lags: number[] = [];
  let running = true;
  let due = performance.now() + 10;
  const tick = () => {
    const now = performance.now();
    lags.push(Math.max(0, now - due));
    due = now + 10;
    if (running) setTimeout(tick, 10);
  };
  setTimeout(tick, 10);
  try {
    const value = await work();
    const seen = lags.length;
    while (lags.length === seen) await new Promise((resolve) => setTimeout(resolve, 5));
    const sorted = [...lags].sort((a, b) => a - b);
    const p99 = sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? 0;
    return { value, lags, p99, worst: sorted.at(-1) ?? 0 };
  } finally {
    running = false;
  }
}
