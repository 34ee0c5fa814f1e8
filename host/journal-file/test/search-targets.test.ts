import { utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { userMessage } from '@dsh/fixtures';
import {
  checkSearchQuery,
  encodeSearchCursor,
  type SearchHit,
  type SearchRequestInput,
} from '@dsh/journal';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createJournalStore, type FileJournalStore } from '../src/index.js';
import { runningRipgrep } from '../src/search/start-on-helper.js';
import { tempDir } from './journal-test-kit.js';
import { ripgrepAbsent } from './ripgrep-available.js';

const skip = ripgrepAbsent('the search order tests');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function request(more: Partial<SearchRequestInput> = {}): SearchRequestInput {
  return {
    query: 'zebra',
    caseSensitive: false,
    regex: false,
    sessionId: '',
    kinds: [],
    toolNames: [],
    limit: 0,
    cursor: '',
    ...more,
  };
}

describe.skipIf(skip)('searchTargets()', () => {
  let store: FileJournalStore;
  let dataDir: string;
  let cleanup: () => Promise<void>;

  beforeEach(async () => {
    const temp = await tempDir();
    ({ dir: dataDir, cleanup } = temp);
    store = await createJournalStore({ dataDir });
  });
  afterEach(async () => {
    await store.close();
    await cleanup();
  });

  /** A session of `count` zebra prompts, its events at `minute` of 2026-01-01. */
  async function session(name: string, minute: number, count = 2): Promise<string> {
    const journal = await store.create({ cwd: '/work', sessionId: name });
    const payloads = Array.from({ length: count }, (_, i) => userMessage(`${name} zebra ${i}`));
    const times = payloads.map((_, i) => new Date(Date.UTC(2026, 0, 1, 0, minute, i)));
    await journal.append(payloads, { times });
    return name;
  }

  const search = (more: Partial<SearchRequestInput> = {}) =>
    store.search.search(checkSearchQuery(request(more)), { signal: new AbortController().signal });

  async function pages(limit: number, between: (page: number) => Promise<void>) {
    const hits: SearchHit[] = [];
    let cursor = '';
    for (let page = 0; page < 50; page++) {
      const found = await search({ limit, cursor });
      hits.push(...found.hits);
      if (found.next === undefined) break;
      cursor = encodeSearchCursor(found.next);
      await between(page);
    }
    return hits.map((h) => h.snippet);
  }

  it('orders sessions by their last event, as the session list does, not by file mtime', async () => {
    await session('late', 30);
    await session('early', 10);
    // The file of the session with the later events was touched longest ago.
    const old = new Date(Date.UTC(2020, 0, 1));
    await utimes(join(dataDir, 'late.jsonl'), old, old);
    const page = await search();
    expect(page.hits.map((h) => h.sessionId)).toEqual(['late', 'late', 'early', 'early']);
  });

  it('pages through every hit once while sessions are appended to and created', async () => {
    await session('c', 1);
    await session('b', 2);
    await session('a', 3);
    const before = (await search()).hits.map((h) => h.snippet);
    await pause(5);
    const paged = await pages(3, async (page) => {
      if (page !== 0) return;
      // After the first page (a, a, b): a session not searched yet and one searched get a new
      // event (times now, newer than all), and a new session appears.
      await (await store.open('c')).append([userMessage('c zebra late')]);
      await (await store.open('a')).append([userMessage('a zebra late')]);
      await session('d', 59);
    });
    expect(paged).toEqual([...before, 'c zebra late']);
  });
});

describe.skipIf(skip)('runRipgrep() on the helper process', () => {
  it('ends its rg run when a page fills long before the output does', async () => {
    const temp = await tempDir();
    const store = await createJournalStore({ dataDir: temp.dir });
    const journal = await store.create({ cwd: '/work', sessionId: 'many' });
    const payloads = Array.from({ length: 20_000 }, (_, i) => userMessage(`zebra ${i}`));
    await journal.append(payloads);
    const signal = new AbortController().signal;
    for (const limit of [1, 50]) {
      const page = await store.search.search(checkSearchQuery(request({ limit })), { signal });
      expect(page.hits).toHaveLength(limit);
    }
    for (let i = 0; i < 100 && runningRipgrep() > 0; i++) await pause(20);
    expect(runningRipgrep()).toBe(0);
    await store.close();
    await temp.cleanup();
  });
});
