import { describe, expect, it } from 'vitest';
import {
  progressBudgetChars,
  progressDelta,
  progressStep,
} from '../src/claude-code/shell-progress.js';

describe('progressDelta()', () => {
  it.each([
    ['the first report', '', 'a\n', 'a\n'],
    ['a grown output', 'a\n', 'a\nb\n', 'b\n'],
    ['the same output again', 'a\nb\n', 'a\nb\n', ''],
    ['a rolling tail of the newest lines', 'a\nb\nc\n', 'b\nc\nd\n', 'd\n'],
    ['a tail whose first line repeats earlier', 'x\na\nx\nb\n', 'x\nb\nc\n', 'c\n'],
    ['no overlap: all of it is new', 'a\nb\n', 'q\nr\n', 'q\nr\n'],
    ['a partial last line that grows', 'a\npro', 'a\nprogress', 'gress'],
  ])('%s', (_name, seen, full, delta) => {
    expect(progressDelta(seen, full)).toBe(delta);
  });
});

describe('progressStep()', () => {
  it('writes deltas until the budget, then one truncated delta, then nothing', () => {
    const big = 'x'.repeat(progressBudgetChars - 10);
    const first = progressStep(undefined, big);
    expect(first).toMatchObject({ text: big, truncated: false });
    const over = progressStep(first.next, big + 'y'.repeat(20));
    expect(over).toMatchObject({ text: 'y'.repeat(10), truncated: true });
    expect(over.next).toMatchObject({ sent: progressBudgetChars, stopped: true });
    const after = progressStep(over.next, big + 'y'.repeat(40));
    expect(after).toMatchObject({ text: '', truncated: false });
  });
});
