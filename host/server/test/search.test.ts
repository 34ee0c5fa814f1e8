import { Code, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { toolCall, toolOutput, toolResult, userMessage } from '@dsh/fixtures';
import { SearchKind, SessionService } from '@dsh/gen/service';
import type { JournalStore } from '@dsh/journal';
import { ripgrepAbsent } from '@dsh/journal-file/test-kit';
import { createPgJournalStore } from '@dsh/journal-pg';
import {
  freshSchema,
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '@dsh/journal-pg/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/index.js';
import { rpcError, startTestHost } from './test-host.js';

/** A host serving a store with its search, the store's own and a client. */
interface SearchHost {
  readonly store: JournalStore;
  readonly dir: string;
  readonly client: Client<typeof SessionService>;
  close(): Promise<void>;
}

let postgres: TestPostgres | undefined;
afterAll(() => postgres?.destroy());

/** The stores whose search the RPC answers from: files (ripgrep) and PostgreSQL. */
const backends: [string, boolean, () => Promise<SearchHost>][] = [
  [
    'files',
    ripgrepAbsent('the Search RPC tests'),
    async () => {
      const host = await startTestHost();
      return { store: host.store, dir: host.dir, client: host.client, close: () => host.close() };
    },
  ],
  [
    'PostgreSQL',
    skipWithoutPostgres(),
    async () => {
      postgres ??= await startPostgres();
      const store = await createPgJournalStore({ url: postgres.url, schema: freshSchema() });
      const server = await startServer({ port: 0, store, search: store.search, log: () => {} });
      const transport = createConnectTransport({ baseUrl: server.url, httpVersion: '1.1' });
      return {
        store,
        dir: process.cwd(),
        client: createClient(SessionService, transport),
        async close() {
          await server.close();
          await store.close();
        },
      };
    },
  ],
];

describe.each(backends)('Search (RPC) over %s', (_name, skip, start) => {
  let host: SearchHost;
  let sessionId: string;

  beforeAll(async () => {
    if (skip) return;
    host = await start();
    const journal = await host.store.create({ cwd: host.dir });
    sessionId = journal.header.sessionId;
    await journal.append([
      userMessage('where is the flamingo?'),
      toolCall('call_1', 'bash', { command: 'ls flamingo' }),
      toolOutput('call_1', 'flamingo.txt\n'),
      toolResult('call_1', 'flamingo.txt'),
    ]);
    // A PostgreSQL cluster's initdb takes seconds, more on a busy machine.
  }, 120_000);
  afterAll(() => host?.close());

  it.skipIf(skip)('answers hits with kinds, tool names, snippets and match offsets', async () => {
    const response = await host.client.search({ query: 'FLAMINGO', sessionId });
    expect(response.hits.map((h) => [h.seq, h.eventType, h.kind, h.toolName, h.callId])).toEqual([
      [0, 'user/message', SearchKind.PROMPT, '', ''],
      [1, 'tool/call', SearchKind.TOOL_ARGUMENTS, 'bash', 'call_1'],
      [2, 'tool/output', SearchKind.TOOL_OUTPUT, 'bash', 'call_1'],
      [3, 'tool/result', SearchKind.TOOL_OUTPUT, 'bash', 'call_1'],
    ]);
    const first = response.hits[0]!;
    expect(first.snippet.slice(first.matches[0]!.start, first.matches[0]!.end)).toBe('flamingo');
    expect(response.nextCursor).toBe('');
  });

  it.skipIf(skip)('pages with next_cursor', async () => {
    const first = await host.client.search({ query: 'flamingo', limit: 3 });
    expect(first.hits).toHaveLength(3);
    const rest = await host.client.search({
      query: 'flamingo',
      limit: 3,
      cursor: first.nextCursor,
    });
    expect(rest.hits.map((h) => h.seq)).toEqual([3]);
  });

  const refused: [string, Record<string, unknown>, Code, RegExp][] = [
    ['an empty query', { query: '' }, Code.InvalidArgument, /empty search query/],
    ['a 1 MB query', { query: 'x'.repeat(1_000_000) }, Code.InvalidArgument, /at most 1024/],
    [
      'a regex that does not compile',
      { query: 'a(', regex: true },
      Code.InvalidArgument,
      /does not compile/,
    ],
    [
      'a catastrophic regex',
      { query: '(a{1000}){1000}', regex: true },
      Code.InvalidArgument,
      /size limit/,
    ],
    ['an unknown session', { query: 'x', sessionId: 'nope' }, Code.NotFound, /does not exist/],
    ['a limit over 500', { query: 'x', limit: 501 }, Code.InvalidArgument, /over 500/],
  ];
  it.skipIf(skip).each(refused)('refuses %s', async (_name, request, code, message) => {
    const error = await rpcError(host.client.search(request));
    expect(error?.code).toBe(code);
    expect(error?.rawMessage).toMatch(message);
  });
});
