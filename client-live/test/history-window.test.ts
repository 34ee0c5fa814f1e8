import { join } from 'node:path';
import { SearchKind } from '@dsh/gen/service';
import { ripgrepAbsent, writeNeedleJournal } from '@dsh/journal-file/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHistoryWindow, createSearchHits, snippetParts } from '../src/index.js';
import { startRealHost, type RealHost } from './real-host.js';

const skip = ripgrepAbsent('the search and history window tests');
const events = 1_000_000;
const needleSeq = 100_000;

describe.skipIf(skip)('createHistoryWindow() over a search hit', () => {
  let host: RealHost;

  beforeAll(async () => {
    host = await startRealHost();
    await writeNeedleJournal(join(host.dir, 'sessions', 'million.jsonl'), {
      sessionId: 'million',
      events,
      needleSeq,
      needle: 'the flux capacitor needs 1.21 gigawatts',
    });
  }, 120_000);
  afterAll(() => host.close());

  it('reaches a hit 900,000 events back with its page loaded, and pages both ways', async () => {
    const hits = createSearchHits({
      client: host.client,
      request: { query: 'capacitor', sessionId: 'million' },
    });
    await hits.ready;
    expect(hits.state.hits.map((h) => [h.seq, h.kind])).toEqual([[needleSeq, SearchKind.PROMPT]]);
    expect(hits.state.complete).toBe(true);
    const hit = (await hits.next())!;
    expect(snippetParts(hit)).toEqual([
      { text: 'the flux ', match: false },
      { text: 'capacitor', match: true },
      { text: ' needs 1.21 gigawatts', match: false },
    ]);

    const window = createHistoryWindow({ client: host.client, sessionId: 'million', seq: hit.seq });
    await window.opened;
    const { snapshot } = window.state;
    expect(window.state.error).toBeUndefined();
    expect(snapshot.firstSeq).toBeLessThanOrEqual(needleSeq);
    expect(snapshot.endSeq).toBeGreaterThan(needleSeq + 1);
    expect(window.state).toMatchObject({ opened: true, hasMore: true, hasNewer: true });
    const endBefore = snapshot.endSeq;
    await window.loadNewer();
    expect(window.state.snapshot.endSeq).toBeGreaterThan(endBefore);
    const firstBefore = window.state.snapshot.firstSeq;
    await window.loadOlder();
    expect(window.state.snapshot.firstSeq).toBeLessThan(firstBefore);
    window.close();
    hits.close();
  }, 60_000);

  it('holds at most maxPages loads, dropping the far ones and loading them again', async () => {
    const options = { client: host.client, sessionId: 'million', seq: needleSeq };
    const bounded = createHistoryWindow({ ...options, maxPages: 3 });
    const unbounded = createHistoryWindow(options);
    await Promise.all([bounded.opened, unbounded.opened]);
    const opened = bounded.state.snapshot;
    for (let i = 0; i < 3; i++) {
      await bounded.loadOlder();
      await unbounded.loadOlder();
    }
    expect(bounded.state.snapshot.firstSeq).toBe(unbounded.state.snapshot.firstSeq);
    expect(bounded.state.snapshot.endSeq).toBe(opened.firstSeq);
    expect(unbounded.state.snapshot.endSeq).toBe(opened.endSeq);
    expect(bounded.state).toMatchObject({ hasMore: true, hasNewer: true, error: undefined });
    const seqs = bounded.state.snapshot.nodes.map((node) => node.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));

    for (let i = 0; i < 3; i++) await bounded.loadNewer();
    const back = bounded.state.snapshot;
    expect(back.endSeq).toBeGreaterThan(opened.firstSeq);
    expect(back.firstSeq).toBeGreaterThan(unbounded.state.snapshot.firstSeq);
    expect(bounded.state).toMatchObject({ hasMore: true, error: undefined });
    bounded.close();
    unbounded.close();
  }, 60_000);

  it('pages through many hits with next() and previous()', async () => {
    const hits = createSearchHits({
      client: host.client,
      request: { query: 'looked at the build', sessionId: 'million', limit: 3 },
    });
    await hits.ready;
    const seqs: number[] = [];
    for (let i = 0; i < 7; i++) seqs.push((await hits.next())!.seq);
    expect(seqs).toEqual([1, 3, 5, 7, 9, 11, 13]);
    expect(hits.previous()?.seq).toBe(11);
    expect(hits.state.hits.length).toBe(9);
    hits.close();
  }, 60_000);
});
