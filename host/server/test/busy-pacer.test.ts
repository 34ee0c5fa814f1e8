import { describe, expect, it } from 'vitest';
import { performance } from 'node:perf_hooks';
import { createBusyPacer, pauseFor } from '../src/session/busy-pacer.js';

describe('pauseFor', () => {
  it.each([
    { utilization: 0, gap: 0 },
    { utilization: 0.5, gap: 0 },
    { utilization: 0.75, gap: 0 },
    { utilization: 0.85, gap: 0 },
    { utilization: 0.9, gap: 25 },
    { utilization: 0.95, gap: 50 },
    { utilization: 0.975, gap: 125 },
    { utilization: 1, gap: 200 },
    { utilization: 1.2, gap: 200 },
    { utilization: Number.NaN, gap: 0 },
  ])('utilization $utilization pauses $gap ms', ({ utilization, gap }) => {
    expect(pauseFor(utilization, 200)).toBe(gap);
  });
});

describe('createBusyPacer', () => {
  it('has no beat while idle, and one shared beat once the loop was saturated', async () => {
    const pacer = createBusyPacer(200, 100);
    try {
      expect(pacer.beat()).toBeUndefined();
      const until = performance.now() + 120;
      while (performance.now() < until) {
        // Hold the loop, as a saturated host does.
      }
      // The first sample after the held loop reads it saturated.
      for (let i = 0; i < 100 && pacer.gapMs() === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
      expect(pacer.gapMs()).toBeGreaterThan(0);
      const beat = pacer.beat();
      expect(beat).toBeDefined();
      expect(pacer.beat()).toBe(beat);
      await beat;
      expect(pacer.beat()).not.toBe(beat);
    } finally {
      pacer.close();
    }
  });
});
