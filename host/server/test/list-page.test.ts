import { Code } from '@connectrpc/connect';
import { JournalError, type JournalSummary } from '@dsh/journal';
import { afterEach, describe, expect, it } from 'vitest';
import { listPage, maxListPageSize } from '../src/session/list-page.js';
import { newestFirst } from '../src/session/session-summary.js';
import { rpcError, startTestHost, type TestHost } from './test-host.js';

/** Summaries `s0..s{n-1}`, two to each update time, newest first. */
function summaries(n: number): JournalSummary[] {
  return Array.from(
    { length: n },
    (_, i) =>
      ({
        header: { sessionId: `s${String(i).padStart(4, '0')}` },
        updatedAt: new Date(1_000_000 - Math.floor(i / 2) * 1000),
      }) as JournalSummary,
  ).sort(newestFirst);
}

/** Every page from the first, as lists of ids. */
function pages(sorted: JournalSummary[], pageSize: number): string[][] {
  const all: string[][] = [];
  let token = '';
  do {
    const page = listPage(sorted, pageSize, token);
    all.push(page.sessions.map((s) => s.header.sessionId));
    token = page.nextPageToken;
  } while (token !== '');
  return all;
}

describe('listPage', () => {
  it.each([
    { n: 0, pageSize: 0, sizes: [0] },
    { n: 5, pageSize: 0, sizes: [5] },
    { n: 5, pageSize: 2, sizes: [2, 2, 1] },
    { n: 6, pageSize: 3, sizes: [3, 3] },
    { n: 6, pageSize: 10, sizes: [6] },
    { n: 2500, pageSize: 5000, sizes: [maxListPageSize, maxListPageSize, 500] },
  ])('$n sessions, page_size $pageSize: pages of $sizes', ({ n, pageSize, sizes }) => {
    const sorted = summaries(n);
    const got = pages(sorted, pageSize);
    expect(got.map((p) => p.length)).toEqual(sizes);
    expect(got.flat()).toEqual(sorted.map((s) => s.header.sessionId));
  });

  it('goes on after the last session shown when sessions are added or removed meanwhile', () => {
    const sorted = summaries(10);
    const first = listPage(sorted, 4, '');
    const changed = sorted.filter((s) => s.header.sessionId !== 's0003');
    const next = listPage(changed, 4, first.nextPageToken);
    expect(next.sessions.map((s) => s.header.sessionId)).toEqual([
      's0004',
      's0005',
      's0006',
      's0007',
    ]);
  });

  it.each(['x', 'WzEsMl0', Buffer.from('["a","b"]').toString('base64url')])(
    'refuses the token %s with invalid_argument',
    (token) => {
      expect(() => listPage(summaries(3), 2, token)).toThrow(JournalError);
      expect(() => listPage(summaries(3), 2, token)).toThrow(/is not one this host gave/);
    },
  );
});

describe('ListSessions paging (RPC)', () => {
  let host: TestHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it.each(['connect-h1', 'connect-binary'] as const)(
    'pages through every session once over %s, and refuses a bad token',
    async (kind) => {
      host = await startTestHost();
      for (let i = 0; i < 7; i++) await host.store.create({ cwd: host.dir, title: `t${i}` });
      const client = host.clientFor(kind);
      const whole = (await client.listSessions({})).sessions.map((s) => s.id);
      expect(whole).toHaveLength(7);
      const seen: string[] = [];
      let pageToken = '';
      let calls = 0;
      do {
        const page = await client.listSessions({ pageSize: 3, pageToken });
        seen.push(...page.sessions.map((s) => s.id));
        pageToken = page.nextPageToken;
        calls += 1;
      } while (pageToken !== '');
      expect(calls).toBe(3);
      expect(seen).toEqual(whole);
      const error = await rpcError(client.listSessions({ pageSize: 3, pageToken: 'nope' }));
      expect(error?.code).toBe(Code.InvalidArgument);
      expect(error?.rawMessage).toMatch(/page_token "nope" is not one this host gave/);
    },
  );
});
