import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assistantMessage, turnEnd, turnStart, userMessage } from '@dsh/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSessionWindow, type SessionWindow, type SessionWindowState } from '../src/index.js';
import { fixtureJournals, startRealHost, until, type RealHost } from './real-host.js';

const fast = { backoff: { initialMs: 20, maxMs: 200, factor: 2 }, idleTimeoutMs: 2_000 };

let host: RealHost;
const windows: SessionWindow[] = [];

beforeAll(async () => {
  host = await startRealHost();
});
afterAll(async () => {
  for (const window of windows) window.close();
  await host.close();
});

function open(sessionId: string, pageSize = 50): SessionWindow {
  const window = createSessionWindow({ client: host.client, sessionId, pageSize, ...fast });
  windows.push(window);
  return window;
}

/** Seqs of the window's events as one list, for "no duplicate, no hole" checks. */
function seqRange(state: SessionWindowState): number[] {
  const { firstSeq, endSeq } = state.snapshot;
  return Array.from({ length: endSeq - firstSeq }, (_, i) => firstSeq + i);
}

function turn(n: number, text: string) {
  return [turnStart(n), userMessage(`ask ${n}`), assistantMessage({ turn: n }, [text]), turnEnd(n)];
}

async function newSession(): Promise<string> {
  const created = await host.client.createSession({ cwd: host.dir });
  const id = created.session?.id;
  if (id === undefined) throw new Error('CreateSession returned no session');
  return id;
}

describe('createSessionWindow()', () => {
  it('loads the tail page, goes live, and pages back to seq 0 without holes', async () => {
    const lines = readFileSync(join(fixtureJournals, 'long-paging.jsonl'), 'utf8').trim();
    const total = lines.split('\n').length - 1;
    const window = open('long-paging', 20);
    await until('live', () => window.state.connection.kind === 'live');
    const tail = window.state;
    expect(tail.opened).toBe(true);
    expect(tail.hasMore).toBe(true);
    expect(tail.snapshot.endSeq).toBe(total);
    expect(tail.baseline).toBeDefined();
    expect(tail.endBaseline?.beforeSeq).toBe(total);
    let pages = 0;
    while (window.state.hasMore) {
      const before = window.state.snapshot.firstSeq;
      await window.loadOlder();
      await until('older page', () => !window.state.loadingOlder);
      expect(window.state.snapshot.firstSeq).toBeLessThan(before);
      pages += 1;
    }
    expect(pages).toBeGreaterThan(2);
    expect(window.state.snapshot.firstSeq).toBe(0);
    expect(seqRange(window.state)).toHaveLength(total);
    expect(window.state.error).toBeUndefined();
  });

  it('follows events appended by the host, from seq 0 for an empty session', async () => {
    const id = await newSession();
    const window = open(id);
    await until('live', () => window.state.connection.kind === 'live');
    expect(window.state.snapshot.endSeq).toBe(0);
    const journal = await host.journal(id);
    await journal.append(turn(1, 'first answer'));
    await until('4 events', () => window.state.snapshot.endSeq === 4);
    const texts = window.state.snapshot.nodes.map((node) => node.kind);
    expect(texts).toEqual(['user', 'assistant', 'turn-end']);
  });

  it.each([
    { pageSize: 3, joins: true },
    { pageSize: 1, joins: false },
  ])('resyncs after a host restart, page size $pageSize (tail joins: $joins)', async (row) => {
    const id = await newSession();
    const journal = await host.journal(id);
    await journal.append(turn(1, 'before the restart'));
    const window = open(id, row.pageSize);
    await until('live', () => window.state.connection.kind === 'live');
    await window.loadOlder();
    const firstSeq = window.state.snapshot.firstSeq;
    await host.stop();
    await until('reconnecting', () => window.state.connection.kind === 'reconnecting');
    await host.start(async (journalOf) => {
      await (await journalOf(id)).append(turn(2, 'while the host was down'));
    });
    await until('live again', () => window.state.connection.kind === 'live');
    const live = await host.journal(id);
    await live.append(turn(3, 'after the restart'));
    await until('12 events', () => window.state.snapshot.endSeq === 12);
    const state = window.state;
    expect(state.resyncs).toBe(1);
    // A tail page that joins the window keeps the older pages; one that does not replaces it.
    expect(state.snapshot.firstSeq === firstSeq).toBe(row.joins);
    const userSeqs = state.snapshot.nodes.filter((n) => n.kind === 'user').map((n) => n.seq);
    expect(userSeqs).toEqual(row.joins ? [1, 5, 9] : [9]);
    const fresh = open(id, row.pageSize);
    await until('fresh window', () => fresh.state.snapshot.endSeq === 12);
    while (fresh.state.hasMore && fresh.state.snapshot.firstSeq > state.snapshot.firstSeq) {
      await fresh.loadOlder();
    }
    expect(state.snapshot.nodes.map((n) => [n.kind, n.seq])).toEqual(
      fresh.state.snapshot.nodes.map((n) => [n.kind, n.seq]),
    );
  });

  it('goes offline with the host error for an unknown session, and stays closed', async () => {
    const window = open('no-such-session');
    await until('offline', () => window.state.connection.kind === 'offline');
    const connection = window.state.connection;
    expect(connection.kind === 'offline' && connection.error).toMatch(/not_found/);
    expect(window.state.opened).toBe(false);
    window.close();
    expect(window.state.connection).toEqual({ kind: 'offline', error: 'closed' });
  });

  it('streams a burst of appends into one window, in order', async () => {
    const id = await newSession();
    const window = open(id);
    await until('live', () => window.state.connection.kind === 'live');
    const journal = await host.journal(id);
    for (let n = 1; n <= 50; n += 1) await journal.append(turn(n, `answer ${n}`));
    await until('200 events', () => window.state.snapshot.endSeq === 200);
    const assistants = window.state.snapshot.nodes.filter((n) => n.kind === 'assistant');
    expect(assistants).toHaveLength(50);
    expect(seqRange(window.state)).toHaveLength(200);
  });
});

describe('createSessionWindow() on a session the host is still indexing', () => {
  let indexing: RealHost;
  beforeAll(async () => {
    // Every open that scans over 1 KiB serves its tail page backwards meanwhile.
    indexing = await startRealHost({ longScanBytes: 1024 });
  });
  afterAll(async () => {
    await indexing.close();
  });

  it('shows the tail at once, then takes the baselines when the host has them', async () => {
    const text = readFileSync(join(fixtureJournals, 'long-paging.jsonl'), 'utf8');
    const [head, ...rest] = text.split('\n');
    const header = { ...(JSON.parse(head!) as object), sessionId: 'unindexed' };
    const path = join(indexing.dir, 'sessions', 'unindexed.jsonl');
    writeFileSync(path, [JSON.stringify(header), ...rest].join('\n'));
    const seen: SessionWindowState[] = [];
    const window = createSessionWindow({
      client: indexing.client,
      sessionId: 'unindexed',
      pageSize: 20,
      ...fast,
      onChange: (state) => seen.push(state),
    });
    windows.push(window);
    await until('baselines', () => window.state.baseline !== undefined, 15_000);
    const first = seen.find((state) => state.opened)!;
    expect(first.baselinePending).toBe(true);
    expect(first.baseline).toBeUndefined();
    const total = rest.filter((line) => line !== '').length;
    expect(first.snapshot.endSeq).toBe(total);
    const done = window.state;
    expect(done.baselinePending).toBe(false);
    expect(done.endBaseline?.beforeSeq).toBe(total);
    // The same totals a window opened on the indexed session shows.
    const reference = open('long-paging', 20);
    await until('reference', () => reference.state.endBaseline !== undefined);
    expect(done.endBaseline?.tokenUsage).toEqual(reference.state.endBaseline?.tokenUsage);
  }, 20_000);
});
