import { describe, expect, it } from 'vitest';
import { maxPageBytes, pageRange } from '../src/index.js';

/** A boundary index over a sorted list of message seqs. */
function boundaries(seqs: number[]) {
  return {
    messagesBefore: (end: number) => seqs.filter((s) => s < end).length,
    boundary: (i: number) => seqs[i]!,
  };
}

describe('pageRange()', () => {
  // Messages at 0, 3, 4, 8 in a 10-event journal.
  const index = boundaries([0, 3, 4, 8]);
  const cases: [string, number | undefined, number, { start: number; end: number }][] = [
    ['tail, everything fits', undefined, 50, { start: 0, end: 10 }],
    ['tail, one message', undefined, 1, { start: 8, end: 10 }],
    ['tail, two messages', undefined, 2, { start: 4, end: 10 }],
    ['before a boundary', 8, 2, { start: 3, end: 8 }],
    ['before mid-message', 6, 1, { start: 4, end: 6 }],
    ['exactly k messages start at 0', 8, 3, { start: 0, end: 8 }],
    ['before 0 is empty', 0, 5, { start: 0, end: 0 }],
    ['0 means 50', undefined, 0, { start: 0, end: 10 }],
  ];
  it.each(cases)('%s', (_name, beforeSeq, maxMessages, expected) => {
    expect(pageRange(index, 10, beforeSeq, maxMessages)).toEqual({ ok: true, value: expected });
  });

  it('starts at 0 when the journal has events before its first message', () => {
    expect(pageRange(boundaries([2, 5]), 7, undefined, 1)).toEqual({
      ok: true,
      value: { start: 5, end: 7 },
    });
    expect(pageRange(boundaries([2, 5]), 7, 5, 1)).toEqual({
      ok: true,
      value: { start: 0, end: 5 },
    });
  });

  it('holds fewer messages when the page would pass the byte budget, never none', () => {
    const mib = 1024 * 1024;
    // Messages at 0, 3, 4, 8; events 4 and 8 are 20 MiB lines, the rest 100 bytes.
    const sizes = [100, 100, 100, 100, 20 * mib, 100, 100, 100, 20 * mib, 100];
    const withBytes = {
      ...boundaries([0, 3, 4, 8]),
      servedBytes: (from: number, to: number) => sizes.slice(from, to).reduce((a, b) => a + b, 0),
    };
    expect(maxPageBytes).toBe(32 * mib);
    expect(pageRange(withBytes, 10, undefined, 50)).toEqual({
      ok: true,
      value: { start: 8, end: 10 },
    });
    expect(pageRange(withBytes, 10, 8, 50)).toEqual({ ok: true, value: { start: 0, end: 8 } });
    const huge = { ...withBytes, servedBytes: () => 40 * mib };
    expect(pageRange(huge, 10, undefined, 50)).toEqual({ ok: true, value: { start: 8, end: 10 } });
  });

  const bad: [string, number | undefined, number, RegExp][] = [
    ['beforeSeq past the end', 11, 5, /past the journal's end: use 0\.\.10/],
    ['negative beforeSeq', -1, 5, /not a seq/],
    ['fractional beforeSeq', 1.5, 5, /not a seq/],
    ['too many messages', undefined, 1001, /use 1\.\.1000/],
    ['negative maxMessages', undefined, -1, /use 1\.\.1000/],
  ];
  it.each(bad)('refuses %s', (_name, beforeSeq, maxMessages, message) => {
    const result = pageRange(index, 10, beforeSeq, maxMessages);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(message);
  });
});
