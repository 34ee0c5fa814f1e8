import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { BaselineSchema } from '@dsh/gen/service';
import type { SessionEvent } from '@dsh/gen/events';
import { contextCompaction, usage, userMessage } from '@dsh/fixtures';
import {
  JournalError,
  type Journal,
  type JournalStore,
  createProjectionRegistry,
  standardProjections,
} from '@dsh/journal';
import { createJournalStore } from '../src/index.js';
import { conversation, messageSeqs, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: JournalStore;
let journal: Journal;
let all: SessionEvent[];

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  // 200 turns: about 700 events, so baselines cross several 256-event checkpoints.
  all = await writeJournal(dir, 'conv', conversation(200));
  store = await createJournalStore({ dataDir: dir });
  journal = await store.open('conv');
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

/** Every page from the tail back to the start. */
async function allPages(maxMessages: number) {
  const pages = [];
  let beforeSeq: number | undefined;
  for (;;) {
    const page = await journal.page(beforeSeq, maxMessages);
    pages.push(page);
    if (!page.hasMore) return pages;
    beforeSeq = page.events[0]!.seq;
  }
}

/** The baseline computed by folding every event before `seq` from scratch. */
function fullFold(seq: number) {
  const registry = createProjectionRegistry();
  let states = registry.initial();
  for (const event of all.slice(0, seq)) states = registry.fold(states, event);
  return registry.baseline(states, seq);
}

describe('page()', () => {
  it.each([1, 2, 7, 50, 1000])(
    'with maxMessages %i: pages are message-aligned, join without hole or overlap, cover all',
    async (maxMessages) => {
      const pages = await allPages(maxMessages);
      const starts = new Set(messageSeqs(all));
      const seqs = pages.reverse().flatMap((p) => p.events.map((e) => e.seq));
      expect(seqs).toEqual(all.map((e) => e.seq));
      for (const [i, page] of pages.entries()) {
        const first = page.events[0]!.seq;
        expect(first === 0 || starts.has(first)).toBe(true);
        expect(messageSeqs(page.events).length).toBeLessThanOrEqual(maxMessages);
        expect(page.hasMore).toBe(i > 0);
      }
    },
  );

  it('counts messages, not events', async () => {
    const page = await journal.page(undefined, 3);
    expect(messageSeqs(page.events)).toHaveLength(3);
    expect(page.events.length).toBeGreaterThan(3);
    expect(page.events.at(-1)!.seq).toBe(all.length - 1);
  });

  it('returns events equal to what was written', async () => {
    const page = await journal.page(undefined, 1000);
    expect(page.events).toEqual(all);
  });

  it('puts a baseline on the tail page only, equal to a full fold', async () => {
    for (const maxMessages of [1, 5, 37, 120, 399]) {
      const tail = await journal.page(undefined, maxMessages);
      const start = tail.events[0]!.seq;
      expect(tail.baseline).toEqual(fullFold(start));
      expect(tail.baseline?.beforeSeq).toBe(start);
      const older = await journal.page(start, maxMessages);
      expect(older.baseline).toBeUndefined();
    }
  });

  it('has a baseline with token totals and the latest successful todo list', async () => {
    const tail = await journal.page(undefined, 1);
    const baseline = tail.baseline!;
    // The tail page holds turn 200's assistant message onward: 199 usages, todo of turn 198.
    expect(baseline.tokenUsage?.messages).toBe(199);
    expect(baseline.tokenUsage?.inputTokens).toBe(BigInt((199 * 200) / 2));
    expect(baseline.tokenUsage?.outputTokens).toBe(BigInt(199 * 200));
    expect(baseline.todoList?.items.map((i) => i.content)).toEqual(['task 198']);
  });

  it('gives an empty journal an empty tail page with an initial baseline', async () => {
    const fresh = await store.create({ cwd: '/w', sessionId: 'empty' });
    const page = await fresh.page(undefined, 0);
    expect(page).toEqual({
      events: [],
      hasMore: false,
      baseline: create(BaselineSchema, { beforeSeq: 0, tokenUsage: {} }),
      endBaseline: create(BaselineSchema, { beforeSeq: 0, tokenUsage: {} }),
    });
  });

  it('keeps the latest compaction and, with a price table, the cost in the baseline', async () => {
    const prices = new Map([['demo', { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 }]]);
    const priced = await createJournalStore({
      dataDir: dir,
      projections: createProjectionRegistry(standardProjections(prices)),
    });
    try {
      const session = await priced.create({ cwd: '/w', sessionId: 'compacted' });
      await session.append([
        userMessage('q'),
        contextCompaction('summary', 0, { usage: usage(1_000_000, 0), tokensBefore: 7 }),
        userMessage('r'),
      ]);
      const { baseline } = await session.page(undefined, 1);
      expect(baseline?.beforeSeq).toBe(2);
      expect(baseline?.latestCompaction).toMatchObject({ seq: 1, keptFromSeq: 0, tokensBefore: 7 });
      expect(baseline?.cost).toMatchObject({ usd: 1, pricedSteps: 1 });
    } finally {
      await priced.close();
    }
  });

  it('pages appended events like written ones', async () => {
    const appended = await journal.append([userMessage('late'), userMessage('later')]);
    const page = await journal.page(undefined, 2);
    expect(page.events).toEqual(appended);
    expect(page.baseline).toEqual(fullFold(all.length));
  });

  const badRequests: [string, number | undefined, number][] = [
    ['beforeSeq past the end', 100_000, 10],
    ['negative beforeSeq', -1, 10],
    ['maxMessages over 1000', undefined, 1001],
    ['negative maxMessages', undefined, -5],
  ];
  it.each(badRequests)('refuses %s with invalid_argument', async (_name, beforeSeq, max) => {
    await expect(journal.page(beforeSeq, max)).rejects.toMatchObject({
      name: 'JournalError',
      kind: 'invalid_argument',
    });
  });

  it('accepts beforeSeq equal to the length', async () => {
    const page = await journal.page(all.length, 1);
    expect(page.events.at(-1)!.seq).toBe(all.length - 1);
    expect(page.baseline).toBeUndefined();
  });

  it('reads any range with read()', async () => {
    expect(await journal.read(10, 20)).toEqual(all.slice(10, 20));
    expect(await journal.read(5, 5)).toEqual([]);
    await expect(journal.read(0, all.length + 1)).rejects.toBeInstanceOf(JournalError);
  });
});
