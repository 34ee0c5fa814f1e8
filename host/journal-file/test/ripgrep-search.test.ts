import {
  assistantMessage,
  toolCall,
  toolOutput,
  toolResult,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import {
  checkSearchQuery,
  encodeSearchCursor,
  JournalError,
  type SearchHit,
  type SearchPage,
  type SearchRequestInput,
} from '@dsh/journal';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createFileJournalBackend,
  createJournalStore,
  createRipgrepSearch,
  type FileJournalStore,
} from '../src/index.js';
import { tempDir } from './journal-test-kit.js';
import { ripgrepAbsent } from './ripgrep-available.js';

const skip = ripgrepAbsent('the ripgrep search tests');
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function request(query: string, more: Partial<SearchRequestInput> = {}): SearchRequestInput {
  return {
    query,
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

describe.skipIf(skip)('createRipgrepSearch()', () => {
  let store: FileJournalStore;
  let cleanup: () => Promise<void>;
  let dataDir: string;
  const ids: string[] = [];

  async function session(payloads: Payload[], minute: number): Promise<string> {
    const journal = await store.create({ cwd: '/work' });
    const times = payloads.map((_, i) => new Date(Date.UTC(2026, 0, 1, 0, minute, i)));
    await journal.append(payloads, { times });
    ids.push(journal.header.sessionId);
    return journal.header.sessionId;
  }

  async function search(
    query: string,
    more: Partial<SearchRequestInput> = {},
  ): Promise<SearchPage> {
    return store.search.search(checkSearchQuery(request(query, more)), {
      signal: new AbortController().signal,
    });
  }

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    dataDir = temp.dir;
    store = await createJournalStore({ dataDir });
    // Written oldest first: a search orders sessions by their files' last append.
    await session([userMessage('an older zebra prompt'), userMessage('nothing here')], 0);
    await pause(30);
    await session(
      [
        userMessage('find the Zebra in the config'),
        assistantMessage({ turn: 1 }, ['Looking for zebra now.']),
        toolCall('call_1', 'bash', { command: 'grep -rn "zebra" src' }),
        toolOutput('call_1', 'src/zebra.ts:1: live zebra line\n'),
        toolResult('call_1', 'src/zebra.ts:1: export const zebra = 1;'),
        toolCall('call_2', 'read_file', { path: 'src/zebra.ts' }),
        toolResult('call_2', 'export const zebra = 1;'),
      ],
      1,
    );
    await pause(30);
    await session([userMessage('the newest zebra prompt')], 2);
  });
  afterAll(async () => {
    await store.close();
    await cleanup();
  });

  it('finds every field kind, newest session first, and names the tool of output hits', async () => {
    const page = await search('zebra');
    const [older, fields, newest] = [ids[0]!, ids[1]!, ids[2]!];
    expect(page.hits.map((h) => [h.sessionId, h.seq, h.kind, h.toolName])).toEqual([
      [newest, 0, 'prompt', ''],
      [fields, 0, 'prompt', ''],
      [fields, 1, 'assistant', ''],
      [fields, 2, 'tool_arguments', 'bash'],
      [fields, 3, 'tool_output', 'bash'],
      [fields, 4, 'tool_output', 'bash'],
      [fields, 5, 'tool_arguments', 'read_file'],
      [fields, 6, 'tool_output', 'read_file'],
      [older, 0, 'prompt', ''],
    ]);
    expect(page.next).toBeUndefined();
    expect(page.timeLimited).toBe(false);
    for (const hit of page.hits) {
      const m = hit.matches[0]!;
      expect(hit.snippet.slice(m.start, m.end).toLowerCase()).toBe('zebra');
    }
  });

  it('pages with a cursor through the same hits, each once', async () => {
    const all = (await search('zebra')).hits;
    const paged: SearchHit[] = [];
    let cursor = '';
    for (let i = 0; i < 20; i++) {
      const page = await search('zebra', { limit: 2, cursor });
      paged.push(...page.hits);
      expect(page.hits.length).toBeLessThanOrEqual(2);
      if (page.next === undefined) break;
      cursor = encodeSearchCursor(page.next);
    }
    expect(paged).toEqual(all);
  });

  const filtered: [string, Partial<SearchRequestInput>, [number, string][]][] = [
    ['case sensitive', { caseSensitive: true }, [[0, 'prompt']]],
    ['prompts only', { kinds: ['prompt'] }, [[0, 'prompt']]],
    [
      'one tool',
      { toolNames: ['read_file'] },
      [
        [5, 'tool_arguments'],
        [6, 'tool_output'],
      ],
    ],
    [
      'tool output of one tool',
      { toolNames: ['bash'], kinds: ['tool_output'] },
      [
        [3, 'tool_output'],
        [4, 'tool_output'],
      ],
    ],
    ['a regex', { regex: true, query: 'Z[a-z]+a in' }, [[0, 'prompt']]],
  ];
  it.each(filtered)('filters: %s', async (_name, more, expected) => {
    const query = more.query ?? (more.caseSensitive ? 'Zebra' : 'zebra');
    const page = await search(query, { ...more, query, sessionId: ids[1]! });
    expect(page.hits.map((h) => [h.seq, h.kind])).toEqual(expected);
  });

  const refused: [string, string, Partial<SearchRequestInput>, string, RegExp][] = [
    ['an empty query', '  ', {}, 'invalid_argument', /empty search query/],
    ['a 1 MB query', 'x'.repeat(1 << 20), {}, 'invalid_argument', /at most 1024/],
    ['look-around', '(?=zebra)', { regex: true }, 'invalid_argument', /look-around/],
    [
      'a regex that does not compile',
      'zeb(ra',
      { regex: true },
      'invalid_argument',
      /does not compile/,
    ],
    [
      'a regex too big to compile',
      '(a{1000}){1000}',
      { regex: true },
      'invalid_argument',
      /size limit/,
    ],
    [
      'an unknown session',
      'zebra',
      { sessionId: 'no-such-session' },
      'not_found',
      /does not exist/,
    ],
    [
      'a bad cursor',
      'zebra',
      { cursor: 'nonsense' },
      'invalid_argument',
      /malformed search cursor/,
    ],
  ];
  it.each(refused)('refuses %s', async (_name, query, more, kind, message) => {
    const error = await search(query, more).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ kind, message: expect.stringMatching(message) });
  });

  it('runs a pattern that backtracks exponentially elsewhere in linear time', async () => {
    const page = await search('(a*)*b', { regex: true });
    expect(page.timeLimited).toBe(false);
  });

  it('stops at its output cap with a cursor that goes on from there', async () => {
    const backend = await createFileJournalBackend({ dataDir });
    const capped = createRipgrepSearch(backend, { maxOutputBytes: 1 });
    const signal = new AbortController().signal;
    const first = await capped.search(checkSearchQuery(request('zebra')), { signal });
    expect(first.timeLimited).toBe(true);
    expect(first.next).toBeDefined();
    const rest = await search('zebra', { cursor: encodeSearchCursor(first.next!) });
    expect([...first.hits, ...rest.hits]).toEqual((await search('zebra')).hits);
    await backend.close();
  });
});

describe('createRipgrepSearch() without ripgrep', () => {
  it.each([false, true])('is unavailable naming the package (regex %s)', async (regex) => {
    const temp = await tempDir();
    const missing = join(temp.dir, 'no-such-rg');
    const store = await createJournalStore({ dataDir: temp.dir, search: { program: missing } });
    const journal = await store.create({ cwd: '/work' });
    await journal.append([userMessage('zebra')]);
    const error = await store.search
      .search(checkSearchQuery(request('zebra', { regex })), {
        signal: new AbortController().signal,
      })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'unavailable',
      message: expect.stringContaining('apt-get install ripgrep'),
    });
    await store.close();
    await temp.cleanup();
  });
});
