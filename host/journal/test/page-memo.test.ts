import { create } from '@bufbuild/protobuf';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { noteLineLength } from '../src/event-line-bytes.js';
import type { JournalPage } from '../src/journal-types.js';
import { PageMemo } from '../src/page-memo.js';

/** A reader that counts its calls; its pages hold one event whose line is `bytes` long. */
function counting(bytes = 10, fail = false) {
  let calls = 0;
  const read = (): Promise<JournalPage> => {
    calls += 1;
    if (fail) return Promise.reject(new Error(`read ${calls} failed`));
    return Promise.resolve({ events: pageOf(bytes), hasMore: false, baseline: undefined });
  };
  return { read, calls: () => calls };
}

/** One event whose journal line is `bytes` long. */
function pageOf(bytes: number): SessionEvent[] {
  const event = create(SessionEventSchema, { seq: 0 });
  noteLineLength(event, bytes);
  return [event];
}

const roomy = { pages: 4, bytes: 1 << 20 };

describe('PageMemo.get()', () => {
  it.each([
    { name: 'the same page at the same length', second: ['tail', 10], reads: 1 },
    { name: 'the same page after an append', second: ['tail', 11], reads: 2 },
    { name: 'another page at the same length', second: ['5:50', 10], reads: 2 },
  ] as const)('$name: $reads read(s)', async ({ second, reads }) => {
    const memo = new PageMemo(roomy);
    const reader = counting();
    const [a, b] = await Promise.all([
      memo.get('tail', 10, reader.read),
      memo.get(second[0], second[1], reader.read),
    ]);
    expect(reader.calls()).toBe(reads);
    expect(a.events).not.toBe(b.events);
    expect(a.events).toEqual(b.events);
  });

  it('forgets a failed read, so the next request reads again', async () => {
    const memo = new PageMemo(roomy);
    const failing = counting(10, true);
    await expect(memo.get('tail', 3, failing.read)).rejects.toThrow('read 1 failed');
    await expect(memo.get('tail', 3, failing.read)).rejects.toThrow('read 2 failed');
  });

  it('keeps no more pages than its limit, dropping the least recently used', async () => {
    const memo = new PageMemo(roomy);
    const reader = counting();
    for (const key of ['a', 'b', 'c', 'd']) await memo.get(key, 1, reader.read);
    await memo.get('a', 1, reader.read); // used again: b is now the oldest
    await memo.get('e', 1, reader.read); // drops b
    expect(reader.calls()).toBe(5);
    await memo.get('a', 1, reader.read);
    expect(reader.calls()).toBe(5);
    await memo.get('b', 1, reader.read);
    expect(reader.calls()).toBe(6);
  });

  it('keeps no more line bytes than its limit', async () => {
    const memo = new PageMemo({ pages: 4, bytes: 100 });
    const big = counting(60);
    const small = counting(30);
    await memo.get('a', 1, big.read);
    await memo.get('b', 1, small.read);
    await memo.get('a', 1, big.read);
    expect(big.calls() + small.calls()).toBe(2);
    await memo.get('c', 1, small.read); // 120 bytes: b, the least recently used, goes
    await memo.get('a', 1, big.read);
    await memo.get('c', 1, small.read);
    expect(big.calls() + small.calls()).toBe(3);
    await memo.get('b', 1, small.read);
    expect(big.calls() + small.calls()).toBe(4);
  });
});
