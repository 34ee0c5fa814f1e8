import { assistantMessage, toolCall, toolResult, userMessage } from '@dsh/fixtures';
import {
  checkSearchQuery,
  type SearchCursor,
  type SearchKindName,
  type SearchRequestInput,
} from '@dsh/journal';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgJournalBackend,
  createPgJournalStore,
  createPgSearch,
  type PgJournalStore,
} from '../src/index.js';
import { freshSchema, skipWithoutPostgres, startPostgres, type TestPostgres } from './test-kit.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;
let store: PgJournalStore;
let sessionId: string;
const schema = freshSchema('search');

beforeAll(async () => {
  if (skip) return;
  postgres = await startPostgres();
  store = await createPgJournalStore({ url: postgres.url, schema });
  const journal = await store.create({ cwd: '/' });
  sessionId = journal.header.sessionId;
  await journal.append([
    userMessage('Where is the Flamingo? 🦩 flamingo'),
    assistantMessage({ turn: 1 }, ['Looking for flamingos.']),
    toolCall('call_1', 'grep', { pattern: 'flamingo' }),
    toolResult('call_1', 'zoo/flamingo.txt: pink "flamingo"'),
    toolCall('call_2', 'bash', { command: 'echo flamingo' }),
    toolResult('call_2', 'flamingo'),
  ]);
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterAll(async () => {
  await store?.close();
  await postgres?.destroy();
});

const ask = (input: Partial<SearchRequestInput>) =>
  checkSearchQuery({
    query: 'flamingo',
    caseSensitive: false,
    regex: false,
    sessionId: '',
    kinds: [],
    toolNames: [],
    limit: 0,
    cursor: '',
    ...input,
  });

const cases: [string, Partial<SearchRequestInput>, [number, SearchKindName, string][]][] = [
  [
    'plain text, any case',
    {},
    [
      [0, 'prompt', ''],
      [1, 'assistant', ''],
      [2, 'tool_arguments', 'grep'],
      [3, 'tool_output', 'grep'],
      [4, 'tool_arguments', 'bash'],
      [5, 'tool_output', 'bash'],
    ],
  ],
  ['case-sensitive', { query: 'Flamingo', caseSensitive: true }, [[0, 'prompt', '']]],
  [
    'a regex',
    { query: 'pink .{1,2}fla[m]ingo', regex: true, kinds: ['tool_output'] },
    [[3, 'tool_output', 'grep']],
  ],
  ['only prompts', { kinds: ['prompt'] }, [[0, 'prompt', '']]],
  [
    'one tool',
    { toolNames: ['bash'] },
    [
      [4, 'tool_arguments', 'bash'],
      [5, 'tool_output', 'bash'],
    ],
  ],
  ['a key or an id, which nobody reads', { query: 'call_1' }, []],
];

describe.skipIf(skip)('createPgSearch()', () => {
  it.each(cases)('finds %s', async (_name, input, expected) => {
    const page = await store.search.search(ask(input), { signal: new AbortController().signal });
    expect(page.hits.map((h) => [h.seq, h.kind, h.toolName])).toEqual(expected);
    expect(page.next).toBeUndefined();
  });

  it('marks each match in the snippet in UTF-16 units, past a character outside the BMP', async () => {
    const page = await store.search.search(ask({ kinds: ['prompt'] }), {
      signal: new AbortController().signal,
    });
    const [hit] = page.hits;
    expect(hit!.matches.map((m) => hit!.snippet.slice(m.start, m.end))).toEqual([
      'Flamingo',
      'flamingo',
    ]);
  });

  it('pages with a cursor: no hit twice, none skipped', async () => {
    const seqs: number[] = [];
    let cursor: SearchCursor | undefined;
    for (let page = 0; page < 10; page += 1) {
      const result = await store.search.search(
        { ...ask({ limit: 4, sessionId }), cursor },
        { signal: new AbortController().signal },
      );
      seqs.push(...result.hits.map((h) => h.seq));
      cursor = result.next;
      if (cursor === undefined) break;
    }
    expect(seqs).toEqual([0, 1, 2, 3, 4, 5]);
  });

  it('stops a costly regex at its statement timeout and answers with a cursor', async () => {
    const journal = await store.create({ cwd: '/' });
    const long = 'ab'.repeat(2000);
    for (let batch = 0; batch < 10; batch += 1) {
      await journal.append(Array.from({ length: 500 }, () => toolResult('c', long)));
    }
    const backend = await createPgJournalBackend({ url: postgres!.url, schema });
    const search = createPgSearch(backend.db, { budgetMs: 300, statementMs: 50 });
    const started = Date.now();
    const page = await search.search(
      ask({ query: '(a|b)*(a|b)*(a|b)*c', regex: true, sessionId: journal.header.sessionId }),
      { signal: new AbortController().signal },
    );
    expect(page.timeLimited).toBe(true);
    expect(page.next).toBeDefined();
    expect(Date.now() - started).toBeLessThan(3000);
    await backend.close();
  }, 60_000);
});
