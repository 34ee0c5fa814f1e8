import { describe, expect, it } from 'vitest';
import { backoffDelay } from '../src/index.js';

describe('backoffDelay()', () => {
  const options = { initialMs: 250, maxMs: 5_000, factor: 2 };
  it.each([
    [1, 250],
    [2, 500],
    [3, 1_000],
    [5, 4_000],
    [6, 5_000],
    [60, 5_000],
  ])('attempt %i waits %i ms', (attempt, ms) => {
    expect(backoffDelay(attempt, options)).toBe(ms);
  });

  it.each([
    { jitter: 0.2, random: 0, attempt: 3, want: 1_000 },
    { jitter: 0.2, random: 0.5, attempt: 3, want: 900 },
    { jitter: 0.2, random: 0.999, attempt: 6, want: 4_001 },
    { jitter: 1, random: 0.5, attempt: 2, want: 250 },
    { jitter: 0, random: 0.5, attempt: 2, want: 500 },
    { jitter: 3, random: 0.5, attempt: 2, want: 250 },
  ])(
    'jitter $jitter with random $random takes its share off attempt $attempt: $want ms',
    ({ jitter, random, attempt, want }) => {
      expect(backoffDelay(attempt, { ...options, jitter }, () => random)).toBe(want);
    },
  );

  it('never waits longer than the exponential delay, whatever random gives', () => {
    const jittered = { ...options, jitter: 0.2 };
    for (let attempt = 1; attempt <= 8; attempt++) {
      const delay = backoffDelay(attempt, jittered);
      expect(delay).toBeLessThanOrEqual(backoffDelay(attempt, options));
      expect(delay).toBeGreaterThanOrEqual(backoffDelay(attempt, options) * 0.8 - 1);
    }
  });
});
