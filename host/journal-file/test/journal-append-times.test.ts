import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { timestampDate } from '@bufbuild/protobuf/wkt';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { userMessage } from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import { onAppended } from '@dsh/journal/test-kit';
import { createJournalStore, type FileJournalStore } from '../src/index.js';
import { tempDir } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: FileJournalStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = await createJournalStore({ dataDir: join(dir, 'data') });
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

const isoTimes = (list: readonly SessionEvent[]): string[] =>
  list.map((e) => timestampDate(e.time!).toISOString());

describe('append()', () => {
  it('stores the given times exactly, even out of order, and reads them back after a reopen', async () => {
    const journal = await store.create({ cwd: '/w', sessionId: 'timed' });
    const given = [
      '2025-03-04T05:06:07.891Z',
      '2025-03-04T05:06:07.001Z', // Earlier than the one before: kept, not reordered.
      '0001-01-01T00:00:00.000Z',
      '2025-03-04T05:06:09.999Z',
    ];
    const notified: SessionEvent[] = [];
    await onAppended(journal, (list) => notified.push(...list));
    const [first, second] = await Promise.all([
      journal.append([userMessage('a'), userMessage('b')], {
        times: given.slice(0, 2).map((t) => new Date(t)),
      }),
      journal.append([userMessage('c'), userMessage('d')], {
        times: given.slice(2).map((t) => new Date(t)),
      }),
    ]);
    const appended = [...first!, ...second!];
    expect(appended.map((e) => e.seq)).toEqual([0, 1, 2, 3]);
    expect(isoTimes(appended)).toEqual(given);
    await vi.waitFor(() => expect(isoTimes(notified)).toEqual(given));
    expect(journal.updatedAt.toISOString()).toBe(given[3]);
    expect(isoTimes(await journal.read(0, 4))).toEqual(given);
    const lines = (await readFile(join(store.dataDir, 'timed.jsonl'), 'utf8')).trim().split('\n');
    expect(lines.slice(1).map((l) => (JSON.parse(l) as { time: string }).time)).toEqual(given);

    await store.close();
    store = await createJournalStore({ dataDir: store.dataDir });
    const [summary] = await store.list();
    expect(summary!.updatedAt.toISOString()).toBe(given[3]);
    const reopened = await store.open('timed');
    expect(isoTimes(await reopened.read(0, 4))).toEqual(given);
    expect(reopened.updatedAt.toISOString()).toBe(given[3]);
  });

  it('keeps using the current time without times, and after timed appends', async () => {
    const journal = await store.create({ cwd: '/w', sessionId: 'mixed' });
    await journal.append([userMessage('old')], { times: [new Date('2020-01-01T00:00:00Z')] });
    const before = Date.now();
    const [now] = await journal.append([userMessage('now')]);
    const at = timestampDate(now!.time!).getTime();
    expect(at).toBeGreaterThanOrEqual(before);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(journal.updatedAt.getTime()).toBe(at);
    expect(await journal.append([], { times: [] })).toEqual([]);
  });

  const good = new Date('2025-01-01T00:00:00Z');
  const bad: [string, number, unknown[], RegExp][] = [
    ['fewer times than events', 2, [good], /1 times for 2 events/],
    ['more times than events', 1, [good, good], /2 times for 1 events/],
    ['times for no events', 0, [good], /1 times for 0 events/],
    ['an invalid date', 2, [good, new Date('not a date')], /time 1 is not a date/],
    ['a year after 9999', 1, [new Date('+010000-01-01T00:00:00Z')], /time 0 is not a date/],
    ['a year before 0001', 1, [new Date('-000001-12-31T23:59:59Z')], /time 0 is not a date/],
    ['a string, not a Date', 1, ['2025-01-01T00:00:00Z'], /time 0 is not a date/],
  ];
  it.each(bad)('refuses %s with invalid_argument and writes nothing', async (_, n, times, why) => {
    const journal = await store.create({ cwd: '/w', sessionId: 'refused' });
    await journal.append([userMessage('kept')], { times: [good] });
    const path = join(store.dataDir, 'refused.jsonl');
    const before = await readFile(path);
    const payloads = Array.from({ length: n }, (_, i) => userMessage(`x${i}`));
    await expect(journal.append(payloads, { times: times as Date[] })).rejects.toMatchObject({
      name: 'JournalError',
      kind: 'invalid_argument',
      message: why,
    });
    expect(await readFile(path)).toEqual(before);
    expect(journal.length).toBe(1);
    expect(journal.updatedAt.toISOString()).toBe(good.toISOString());
    const [next] = await journal.append([userMessage('next')]);
    expect(next!.seq).toBe(1);
  });
});
