import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Journal, type JournalStore } from '@dsh/journal';
import { createJournalStore } from '../src/index.js';

let dir: string;
let store: JournalStore;
let journal: Journal;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'dsh-read-bytes-'));
  store = await createJournalStore({ dataDir: join(dir, 'data') });
  journal = await store.create({ cwd: dir });
  // Events 0..9 of about 1 KiB each, then one of 64 KiB, then 1 KiB ones again.
  const sizes = [...Array<number>(10).fill(1_000), 64_000, 1_000, 1_000];
  await journal.append(sizes.map((n, i) => userMessage(`${i} ${'x'.repeat(n)}`)));
});
afterAll(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

describe('Journal.read() with maxBytes', () => {
  it.each([
    { name: 'no limit', from: 0, to: 13, maxBytes: undefined, want: [0, 13] },
    { name: 'a limit that fits three lines', from: 0, to: 13, maxBytes: 3_500, want: [0, 3] },
    { name: 'a limit below one line reads one event', from: 2, to: 13, maxBytes: 10, want: [2, 3] },
    { name: 'a large event is read alone', from: 10, to: 13, maxBytes: 4_000, want: [10, 11] },
    { name: 'the limit never reads past to', from: 0, to: 2, maxBytes: 1e9, want: [0, 2] },
    { name: 'an empty range', from: 4, to: 4, maxBytes: 1, want: [4, 4] },
  ])('$name', async ({ from, to, maxBytes, want }) => {
    const events = await journal.read(from, to, maxBytes === undefined ? undefined : { maxBytes });
    expect(events.map((e) => e.seq)).toEqual(
      Array.from({ length: want[1]! - want[0]! }, (_, i) => want[0]! + i),
    );
  });
});
