import { describe, expect, it } from 'vitest';
import { compareSessionIds } from '../src/index.js';

describe('compareSessionIds()', () => {
  const ids = ['b-2', 'B_1', 'a', 'A', 'a-b', 'a_b', 'corpus-0010', 'corpus-0002', '9z', 'Z9'];

  it('orders ids as localeCompare does (the session list tie-break)', () => {
    expect([...ids].sort(compareSessionIds)).toEqual([...ids].sort((a, b) => a.localeCompare(b)));
  });

  it.each([
    ['a', 'a', 0],
    ['a', 'b', -1],
    ['b', 'a', 1],
  ])('compares %s with %s as %d', (a, b, sign) => {
    expect(Math.sign(compareSessionIds(a, b))).toBe(sign);
  });
});
