import { setTimeout as sleep } from 'node:timers/promises';
import type { SessionClient } from './clients.js';
import { latencyStats, type LatencyStats } from './stats.js';

/** What a sampler measured. */
export interface PageSamples {
  /** Latency of every Page, in ms; a Page still unanswered at stop counts its time so far. */
  readonly samples: readonly number[];
  /** Pages that failed with an error. */
  readonly errors: number;
  /** Pages that failed or took longer than `limitMs`. */
  readonly slow: number;
  readonly stats: LatencyStats;
}

/** A running sampler. */
export interface PageSampler {
  stop(): Promise<PageSamples>;
}

/**
 * Asks for the tail page of `sessionId` every `everyMs` (one Page at a time, so a host
 * that stops answering shows as one long sample, not a pile of queued ones) until stopped.
 */
export function samplePage(
  client: SessionClient,
  sessionId: string,
  options: { everyMs?: number; limitMs?: number } = {},
): PageSampler {
  const everyMs = options.everyMs ?? 20;
  const limitMs = options.limitMs ?? 50;
  const samples: number[] = [];
  let errors = 0;
  let fastErrors = 0;
  let stopped = false;
  let inFlight: { started: number; abort: AbortController } | undefined;
  const loop = (async () => {
    while (!stopped) {
      const started = performance.now();
      const abort = new AbortController();
      inFlight = { started, abort };
      try {
        await client.page({ sessionId, maxMessages: 5 }, { signal: abort.signal });
        if (!abort.signal.aborted) samples.push(performance.now() - started);
      } catch {
        if (!abort.signal.aborted) {
          const ms = performance.now() - started;
          errors++;
          if (ms <= limitMs) fastErrors++;
          samples.push(ms);
        }
      }
      inFlight = undefined;
      const wait = started + everyMs - performance.now();
      if (wait > 0 && !stopped) await sleep(wait);
    }
  })();
  return {
    async stop() {
      stopped = true;
      const open = inFlight;
      // A Page still waiting at stop counts with its time so far (a stuck host shows).
      if (open) samples.push(performance.now() - open.started);
      open?.abort.abort();
      await loop;
      const slow = samples.filter((ms) => ms > limitMs).length + fastErrors;
      return { samples, errors, slow, stats: latencyStats(samples) };
    },
  };
}
