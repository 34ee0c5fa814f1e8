import { describe, expect, it } from 'vitest';
import { windowHoldsHit } from '../src/index.js';

describe('windowHoldsHit()', () => {
  const window = { sessionId: 's1', snapshot: { firstSeq: 100, endSeq: 150 } };
  it.each([
    ['the first seq of the window', { sessionId: 's1', seq: 100 }, window, true],
    ['the last seq of the window', { sessionId: 's1', seq: 149 }, window, true],
    ['one past the window', { sessionId: 's1', seq: 150 }, window, false],
    ['older than the window', { sessionId: 's1', seq: 99 }, window, false],
    ['another session', { sessionId: 's2', seq: 120 }, window, false],
    [
      'no session shown',
      { sessionId: 's1', seq: 120 },
      { sessionId: undefined, snapshot: undefined },
      false,
    ],
    [
      'an empty window',
      { sessionId: 's1', seq: 0 },
      { sessionId: 's1', snapshot: { firstSeq: 0, endSeq: 0 } },
      false,
    ],
  ])('%s', (_, hit, shown, holds) => {
    expect(windowHoldsHit(hit, shown)).toBe(holds);
  });
});
