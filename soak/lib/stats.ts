/** Summary figures of a sample of latencies in milliseconds. */
export interface LatencyStats {
  readonly count: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Percentiles by nearest rank; all zero for an empty sample. */
export function latencyStats(samples: readonly number[]): LatencyStats {
  if (samples.length === 0) return { count: 0, p50: 0, p99: 0, max: 0 };
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number): number =>
    sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
  return { count: sorted.length, p50: at(0.5), p99: at(0.99), max: sorted.at(-1) ?? 0 };
}

/** `p50 3 ms, p99 8 ms, max 12 ms`. */
export function formatStats(stats: LatencyStats): string {
  const ms = (v: number): string => `${v < 10 ? v.toFixed(1) : Math.round(v)} ms`;
  return `p50 ${ms(stats.p50)}, p99 ${ms(stats.p99)}, max ${ms(stats.max)}`;
}
