import { describe, expect, it } from 'vitest';
import { formatDuration } from '../../src/format/relative-time.js';

describe('formatDuration', () => {
  it.each([
    [-5, '0 ms'],
    [850, '850 ms'],
    [4_200, '4.2 s'],
    [59_949, '59.9 s'],
    [60_000, '1 min 0 s'],
    [185_400, '3 min 5 s'],
    [3_599_999, '59 min 59 s'],
    [3_600_000, '1 h 0 min'],
    [7_500_000, '2 h 5 min'],
    [86_400_000, '1 d 0 h'],
    [28_296_974_000, '327 d 12 h'],
  ])('%d ms is %s', (ms, text) => expect(formatDuration(ms)).toBe(text));
});
