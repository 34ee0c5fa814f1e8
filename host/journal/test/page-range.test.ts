import { describe, expect, it } from 'vitest';
import { checkPageRequest, maxPageBytes, pageRange } from '../src/index.js';

/** Message starts at the sorted seqs `seqs`, and the bytes of each event (none by default). */
function boundaries(seqs: number[], bytes = (_from: number, _to: number) => 0) {
  return { seqs, bytes };
}

/** Checks a request, then cuts it the way `Journal.page` does: from the last size + 1 starts. */
async function cut(
  index: ReturnType<typeof boundaries>,
  length: number,
  beforeSeq: number | undefined,
  maxMessages: number,
) {
  const request = checkPageRequest('s', length, beforeSeq, maxMessages);
  if (!request.ok) return request;
  const { end, size } = request.value;
  const before = index.seqs.filter((s) => s < end);
  const starts = before.slice(Math.max(0, before.length - (size + 1)));
  const bytes = (from: number, to: number) => Promise.resolve(index.bytes(from, to));
  return { ok: true as const, value: await pageRange(starts, end, size, bytes) };
}

describe('checkPageRequest() and pageRange()', () => {
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
  it.each(cases)('%s', async (_name, beforeSeq, maxMessages, expected) => {
    expect(await cut(index, 10, beforeSeq, maxMessages)).toEqual({ ok: true, value: expected });
  });

  it('starts at 0 when the journal has events before its first message', async () => {
    expect(await cut(boundaries([2, 5]), 7, undefined, 1)).toEqual({
      ok: true,
      value: { start: 5, end: 7 },
    });
    expect(await cut(boundaries([2, 5]), 7, 5, 1)).toEqual({
      ok: true,
      value: { start: 0, end: 5 },
    });
  });

  it('holds fewer messages when the page would pass the byte budget, never none', async () => {
    const mib = 1024 * 1024;
    // Messages at 0, 3, 4, 8; events 4 and 8 are 20 MiB lines, the rest 100 bytes.
    const sizes = [100, 100, 100, 100, 20 * mib, 100, 100, 100, 20 * mib, 100];
    const withBytes = boundaries([0, 3, 4, 8], (from, to) =>
      sizes.slice(from, to).reduce((a, b) => a + b, 0),
    );
    expect(maxPageBytes).toBe(32 * mib);
    expect(await cut(withBytes, 10, undefined, 50)).toEqual({
      ok: true,
      value: { start: 8, end: 10 },
    });
    expect(await cut(withBytes, 10, 8, 50)).toEqual({ ok: true, value: { start: 0, end: 8 } });
    const huge = boundaries([0, 3, 4, 8], () => 40 * mib);
    expect(await cut(huge, 10, undefined, 50)).toEqual({ ok: true, value: { start: 8, end: 10 } });
    // A budget cut of a page that starts before its first boundary (start 0).
    expect(await cut(withBytes, 10, 8, 3)).toEqual({ ok: true, value: { start: 0, end: 8 } });
    expect(await cut(huge, 10, 8, 3)).toEqual({ ok: true, value: { start: 4, end: 8 } });
  });

  const bad: [string, number | undefined, number, RegExp][] = [
    ['beforeSeq past the end', 11, 5, /past the end of session s: it has 10 events; use 0\.\.10/],
    ['negative beforeSeq', -1, 5, /not a seq/],
    ['fractional beforeSeq', 1.5, 5, /not a seq/],
    ['too many messages', undefined, 1001, /use 1\.\.1000/],
    ['negative maxMessages', undefined, -1, /use 1\.\.1000/],
  ];
  it.each(bad)('refuses %s', async (_name, beforeSeq, maxMessages, message) => {
    const result = await cut(index, 10, beforeSeq, maxMessages);
    expect(result.ok).toBe(false);
    expect(result.ok ? '' : result.error).toMatch(message);
  });
});
