/** One measured figure of the benchmark. */
export interface BenchRow {
  /** The part measured: "page", "follow", "assembly", "web". */
  section: string;
  name: string;
  value: number;
  unit: string;
  note?: string;
}

/** Sorted-sample statistics for latencies. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export function since(start: number): number {
  return performance.now() - start;
}

/** Runs `fn` `times` times after `warmup` runs and returns each run's milliseconds. */
export async function sample(
  times: number,
  fn: () => Promise<unknown>,
  warmup = 3,
): Promise<number[]> {
  for (let i = 0; i < warmup; i++) await fn();
  const out: number[] = [];
  for (let i = 0; i < times; i++) {
    const start = performance.now();
    await fn();
    out.push(since(start));
  }
  return out;
}
