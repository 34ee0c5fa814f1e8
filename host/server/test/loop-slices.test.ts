import { describe, expect, it } from 'vitest';
import { createLoopSlices } from '../src/loop-slices.js';

describe('createLoopSlices', () => {
  it.each([
    {
      name: 'no pause while the slice has time left',
      elapsed: [0, 3, 9],
      paused: [false, false, false],
    },
    {
      name: 'pauses once the slice is used up',
      elapsed: [0, 5, 10, 12],
      paused: [false, false, true, true],
    },
    {
      name: 'a slow first chunk uses the slice up at once',
      elapsed: [0, 25],
      paused: [false, true],
    },
  ])('$name', ({ elapsed, paused }) => {
    let now = 0;
    const slices = createLoopSlices(10, () => now);
    const got = elapsed.map((t) => {
      now = t;
      return slices.pause() !== undefined;
    });
    expect(got).toEqual(paused);
  });

  it('resumes the waiting writers in order in a later turn, with a fresh slice', async () => {
    let now = 0;
    const slices = createLoopSlices(10, () => now);
    expect(slices.pause()).toBeUndefined();
    now = 10;
    const order: number[] = [];
    const waits = [1, 2, 3].map((i) => slices.pause()!.then(() => order.push(i)));
    expect(order).toEqual([]);
    await Promise.all(waits);
    expect(order).toEqual([1, 2, 3]);
    // The next slice starts at the first pause after the resume.
    expect(slices.pause()).toBeUndefined();
  });
});
