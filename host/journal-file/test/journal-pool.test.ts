import { mkdir, readdir, readlink } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import { openJournalStore, type JournalStore } from '@dsh/journal';
import { createFileJournalBackend, type FileJournalBackend } from '../src/file-journal-backend.js';
import { conversation, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
let backend: FileJournalBackend;
let store: JournalStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  await mkdir(join(dir, 'data'));
  for (let i = 0; i < 6; i += 1) await writeJournal(join(dir, 'data'), `s${i}`, conversation(3));
  backend = await createFileJournalBackend({ dataDir: join(dir, 'data'), openJournals: 2 });
  store = openJournalStore(backend);
});
afterEach(async () => {
  await store?.close();
  await cleanup();
});

/** File descriptors of this process open on the data dir's journals. */
async function openJournalFds(): Promise<number> {
  return (await openJournalFiles()).length;
}

/** The names of the data dir's journals this process holds open. */
async function openJournalFiles(): Promise<string[]> {
  const names: string[] = [];
  for (const fd of await readdir('/proc/self/fd')) {
    const target = await readlink(`/proc/self/fd/${fd}`).catch(() => '');
    if (target.startsWith(join(dir, 'data')) && target.endsWith('.jsonl')) {
      names.push(target.slice(join(dir, 'data').length + 1));
    }
  }
  return names;
}

describe('the journal pool', () => {
  it('keeps at most the cap of idle journals open, and pages the same after a reopen', async () => {
    const first = await (await store.open('s0')).page(undefined, 50);
    for (let i = 0; i < 6; i += 1) await (await store.open(`s${i}`)).page(undefined, 50);
    expect(backend.pool.openCount).toBeLessThanOrEqual(2);
    expect(await openJournalFds()).toBeLessThanOrEqual(2);
    expect(backend.pool.evictions).toBeGreaterThanOrEqual(4);
    expect(await (await store.open('s0')).page(undefined, 50)).toEqual(first);
  });

  it('never closes a journal with a follower, and appends after a reopen', async () => {
    const followed = await store.open('s0');
    const stop = new AbortController();
    const follow = await followed.follow(followed.length, {
      queueLimit: 1000,
      readChunk: 100,
      readChunkBytes: 1 << 20,
      signal: stop.signal,
    });
    for (let i = 1; i < 6; i += 1) await (await store.open(`s${i}`)).page(undefined, 50);
    const appended = followed.append([userMessage('still here')]);
    const [batch] = await Promise.all([follow.next(), appended]);
    expect(batch.map((e) => e.payload.case)).toEqual(['userMessage']);
    follow.close();
    stop.abort();
    const reopened = await store.open('s1');
    const before = reopened.length;
    await reopened.append([userMessage('after a reopen')]);
    expect((await reopened.read(before, before + 1))[0]?.payload.case).toBe('userMessage');
  });

  it('never closes a journal whose turn is running, and closes it once the turn ended', async () => {
    const running = await store.open('s0');
    await running.append([turnStart(1), userMessage('working')]);
    // The turn waits on its model: no read, append or tail holds the journal meanwhile.
    for (let i = 1; i < 6; i += 1) await (await store.open(`s${i}`)).page(undefined, 50);
    expect(await openJournalFiles()).toContain('s0.jsonl');
    const evictions = backend.pool.evictions;
    await running.append([userMessage('still working'), turnEnd(1)]);
    // Pages not read before, so each is read from its journal file (not the store's memo).
    for (let i = 1; i < 6; i += 1) await (await store.open(`s${i}`)).page(undefined, 40);
    expect(backend.pool.evictions).toBeGreaterThan(evictions);
    expect(await openJournalFiles()).not.toContain('s0.jsonl');
    expect(backend.pool.openCount).toBeLessThanOrEqual(2);
    expect(await openJournalFds()).toBeLessThanOrEqual(2);
    const events = await (await store.open('s0')).read(0, (await store.open('s0')).length);
    expect(events.slice(-4).map((e) => e.payload.case)).toEqual([
      'turnStart',
      'userMessage',
      'userMessage',
      'turnEnd',
    ]);
  });
});
