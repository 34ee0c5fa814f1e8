import { describe, expect, it } from 'vitest';
import { pauseFor } from '../src/session/busy-pacer.js';

describe('pauseFor', () => {
  it.each([
    { utilization: 0, gap: 0 },
    { utilization: 0.5, gap: 0 },
    { utilization: 0.75, gap: 0 },
    { utilization: 0.875, gap: 100 },
    { utilization: 1, gap: 200 },
    { utilization: 1.2, gap: 200 },
    { utilization: Number.NaN, gap: 0 },
  ])('utilization $utilization pauses $gap ms', ({ utilization, gap }) => {
    expect(pauseFor(utilization, 200)).toBe(gap);
  });
});
