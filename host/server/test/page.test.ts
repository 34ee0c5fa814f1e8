import { Code, ConnectError } from '@connectrpc/connect';
import { assistantMessage, turnEnd, turnStart, usage, userMessage } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation, startTestHost, type TestHost } from './test-host.js';

let host: TestHost;
let sessionId: string;
const total = 70; // 10 turns

beforeAll(async () => {
  host = await startTestHost();
  const journal = await host.store.create({ cwd: host.dir, title: 'paging' });
  await journal.append(conversation(10));
  sessionId = journal.header.sessionId;
});
afterAll(() => host.close());

describe('Page (RPC)', () => {
  it('returns the tail page with a baseline and message-aligned contiguous events', async () => {
    const page = await host.client.page({ sessionId, maxMessages: 4 });
    const seqs = page.events.map((e) => e.event!.seq);
    expect(seqs.at(-1)).toBe(total - 1);
    expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
    expect(page.events[0]!.event!.payload.case).toMatch(/^(userMessage|assistantMessage)$/);
    const messages = page.events.filter((e) =>
      ['userMessage', 'assistantMessage'].includes(e.event!.payload.case ?? ''),
    );
    expect(messages).toHaveLength(4);
    expect(page.hasMore).toBe(true);
    expect(page.baseline).toBeDefined();
    expect(page.baseline!.beforeSeq).toBe(seqs[0]);
  });

  it("gives the tail page an end baseline that counts the page's own steps", async () => {
    const journal = await host.store.create({ cwd: host.dir, title: 'usage' });
    const steps = [1, 2, 3].flatMap((turn) => [
      turnStart(turn),
      userMessage(`question ${turn}`),
      assistantMessage({ turn }, [`answer ${turn}`], usage(100 * turn, 10 * turn)),
      turnEnd(turn),
    ]);
    await journal.append(steps);
    const id = journal.header.sessionId;
    const page = await host.client.page({ sessionId: id, maxMessages: 2 });
    expect(page.baseline).toMatchObject({ beforeSeq: 9, tokenUsage: { inputTokens: 300n } });
    expect(page.endBaseline).toMatchObject({
      beforeSeq: steps.length,
      tokenUsage: { inputTokens: 600n, outputTokens: 60n, messages: 3 },
      latestTurn: { turn: 3, tokens: { inputTokens: 300n } },
    });
    const older = await host.client.page({ sessionId: id, beforeSeq: 9, maxMessages: 2 });
    expect(older.endBaseline).toBeUndefined();
  });

  it('pages back to the start: pages join without hole or overlap; older pages have no baseline', async () => {
    const seen: number[] = [];
    let beforeSeq: number | undefined;
    let pages = 0;
    for (;;) {
      const page = await host.client.page({ sessionId, beforeSeq, maxMessages: 3 });
      pages += 1;
      if (beforeSeq !== undefined) expect(page.baseline).toBeUndefined();
      const seqs = page.events.map((e) => e.event!.seq);
      if (beforeSeq !== undefined) expect(seqs.at(-1)).toBe(beforeSeq - 1);
      seen.unshift(...seqs);
      if (!page.hasMore) break;
      beforeSeq = seqs[0];
    }
    expect(pages).toBe(10);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
  });

  it.each([
    ['beforeSeq past the end', () => ({ sessionId, beforeSeq: total + 1 }), Code.InvalidArgument],
    ['maxMessages over 1000', () => ({ sessionId, maxMessages: 1001 }), Code.InvalidArgument],
    ['an unknown session', () => ({ sessionId: 'no-such-session' }), Code.NotFound],
    ['a traversal id', () => ({ sessionId: '../x' }), Code.InvalidArgument],
    ['an empty id', () => ({ sessionId: '' }), Code.InvalidArgument],
  ])('refuses %s', async (_name, request, code) => {
    const error = await host.client.page(request()).then(
      () => undefined,
      (e: unknown) => ConnectError.from(e),
    );
    expect(error?.code).toBe(code);
    expect(error?.rawMessage.length).toBeGreaterThan(10);
  });

  it('accepts beforeSeq equal to the event count (same as the tail)', async () => {
    const tail = await host.client.page({ sessionId, maxMessages: 2 });
    const atEnd = await host.client.page({ sessionId, beforeSeq: total, maxMessages: 2 });
    expect(atEnd.events.map((e) => e.event!.seq)).toEqual(tail.events.map((e) => e.event!.seq));
  });
});
