import { Code } from '@connectrpc/connect';
import { toolCall, toolOutput, toolResult, userMessage } from '@dsh/fixtures';
import { SearchKind } from '@dsh/gen/service';
import { ripgrepAbsent } from '@dsh/journal-file/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpcError, startTestHost, type TestHost } from './test-host.js';

const skip = ripgrepAbsent('the Search RPC tests');

describe.skipIf(skip)('Search (RPC)', () => {
  let host: TestHost;
  let sessionId: string;

  beforeAll(async () => {
    host = await startTestHost();
    const journal = await host.store.create({ cwd: host.dir });
    sessionId = journal.header.sessionId;
    await journal.append([
      userMessage('where is the flamingo?'),
      toolCall('call_1', 'bash', { command: 'ls flamingo' }),
      toolOutput('call_1', 'flamingo.txt\n'),
      toolResult('call_1', 'flamingo.txt'),
    ]);
  });
  afterAll(() => host.close());

  it('answers hits with kinds, tool names, snippets and match offsets', async () => {
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

  it('pages with next_cursor', async () => {
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
  it.each(refused)('refuses %s', async (_name, request, code, message) => {
    const error = await rpcError(host.client.search(request));
    expect(error?.code).toBe(code);
    expect(error?.rawMessage).toMatch(message);
  });
});
