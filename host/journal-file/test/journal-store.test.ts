import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { events, extension, userMessage } from '@dsh/fixtures';
import { encodeEventLine, type StoreChange } from '@dsh/journal';
import { onAppended, onStoreChange } from '@dsh/journal/test-kit';
import { createJournalStore, type FileJournalStore } from '../src/index.js';
import { conversation, header, journalText, tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let fixtures: string;
let cleanup: () => Promise<void>;
let store: FileJournalStore;

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  fixtures = join(dir, 'fixtures');
  await mkdir(fixtures);
  store = await createJournalStore({ dataDir: join(dir, 'data'), fixtureDirs: [fixtures] });
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

describe('open()', () => {
  const cases: [string, string, string][] = [
    ['path traversal', '../x', 'invalid_argument'],
    ['a separator', 'a/b', 'invalid_argument'],
    ['a hidden file', '.x', 'invalid_argument'],
    ['an empty id', '', 'invalid_argument'],
    ['an unknown session', 'nobody', 'not_found'],
  ];
  it.each(cases)('refuses %s', async (_name, id, kind) => {
    await expect(store.open(id)).rejects.toMatchObject({ name: 'JournalError', kind });
  });

  it('returns the same open journal twice, even when asked concurrently', async () => {
    await writeJournal(fixtures, 'fx', conversation(2));
    const [a, b] = await Promise.all([store.open('fx'), store.open('fx')]);
    expect(a).toBe(b);
    expect(await store.open('fx')).toBe(a);
  });
});

describe('create()', () => {
  it('writes a header, lists the session and emits added', async () => {
    const changes: StoreChange[] = [];
    await onStoreChange(store, (c) => changes.push(c));
    const journal = await store.create({ cwd: '/w', model: 'm', title: 'T' });
    const id = journal.header.sessionId;
    expect(id).toMatch(/^s-[0-9a-z]+-[0-9a-f]{8}$/);
    expect(journal).toMatchObject({ length: 0, readOnly: false });
    expect(journal.header).toMatchObject({ cwd: '/w', model: 'm', title: 'T', parentId: '' });
    const text = await readFile(join(store.dataDir, `${id}.jsonl`), 'utf8');
    expect(JSON.parse(text.trim())).toEqual(journal.header);
    await vi.waitFor(() => expect(changes).toEqual([{ kind: 'added', sessionId: id }]));
  });

  it('refuses a taken id, in the data dir or a fixture dir', async () => {
    await store.create({ cwd: '/w', sessionId: 'taken' });
    await writeJournal(fixtures, 'fixture-taken', []);
    for (const sessionId of ['taken', 'fixture-taken']) {
      await expect(store.create({ cwd: '/w', sessionId })).rejects.toMatchObject({
        kind: 'exists',
      });
    }
  });

  it('needs an existing parent', async () => {
    await expect(store.create({ cwd: '/w', parentId: 'ghost' })).rejects.toMatchObject({
      kind: 'not_found',
    });
    await expect(store.create({ cwd: '/w', parentId: '../up' })).rejects.toMatchObject({
      kind: 'invalid_argument',
    });
    const parent = await store.create({ cwd: '/w' });
    const child = await store.create({ cwd: '/w', parentId: parent.header.sessionId });
    expect(child.header.parentId).toBe(parent.header.sessionId);
  });
});

describe('append()', () => {
  it('assigns contiguous seqs in call order and notifies each event once, in order', async () => {
    const journal = await store.create({ cwd: '/w', sessionId: 'live' });
    const changes: StoreChange[] = [];
    await onStoreChange(store, (c) => changes.push(c));
    const calls: number[][] = [];
    const unsubscribe = await onAppended(journal, (list) => calls.push(list.map((e) => e.seq)));
    // A follow that is never read does not hold the others back.
    const idle = new AbortController();
    await journal.follow(0, {
      signal: idle.signal,
      queueLimit: 100,
      readChunk: 10,
      readChunkBytes: 1024,
    });
    const batches = await Promise.all([
      journal.append([userMessage('a')]),
      journal.append([userMessage('b'), userMessage('c')]),
      journal.append([userMessage('d')]),
    ]);
    expect(batches.map((b) => b.map((e) => e.seq))).toEqual([[0], [1, 2], [3]]);
    const later = await journal.append([userMessage('e')]);
    expect(later[0]!.seq).toBe(4);
    // Appends issued in one tick share one write: one notification for all of them.
    await vi.waitFor(() => expect(calls).toEqual([[0, 1, 2, 3], [4]]));
    expect(journal.length).toBe(5);
    const text = await readFile(join(store.dataDir, 'live.jsonl'), 'utf8');
    expect(text.trim().split('\n')).toHaveLength(6);
    await new Promise((r) => setImmediate(r));
    const updates = changes.filter((c) => c.kind === 'updated');
    expect(updates.length).toBeGreaterThanOrEqual(1);
    expect(updates.length).toBeLessThanOrEqual(2); // One per tick with appends, not per event.
    expect(journal.tailCount).toBe(2);
    unsubscribe();
    expect(journal.tailCount).toBe(1);
    idle.abort();
    expect(journal.tailCount).toBe(0);
  });

  it('has every notified event on disk when the listener runs', async () => {
    const journal = await store.create({ cwd: '/w', sessionId: 'durable' });
    const path = join(store.dataDir, 'durable.jsonl');
    const checks: Promise<boolean>[] = [];
    await onAppended(journal, (list) => {
      const last = list.at(-1)!;
      checks.push(
        readFile(path, 'utf8').then((text) => text.includes(encodeEventLine(last) + '\n')),
      );
    });
    for (let i = 0; i < 5; i += 1) await journal.append([userMessage(`m${i}`)]);
    await vi.waitFor(() => expect(checks).toHaveLength(5));
    expect(await Promise.all(checks)).toEqual([true, true, true, true, true]);
  });

  it('continues the seq after a reopen', async () => {
    const journal = await store.create({ cwd: '/w', sessionId: 'again' });
    await journal.append([userMessage('1'), userMessage('2')]);
    await store.close();
    store = await createJournalStore({ dataDir: store.dataDir });
    const reopened = await store.open('again');
    expect(reopened.length).toBe(2);
    const [next] = await reopened.append([userMessage('3')]);
    expect(next!.seq).toBe(2);
    expect((await reopened.read(0, 3)).map((e) => e.seq)).toEqual([0, 1, 2]);
  });

  it('is refused on a read-only fixture', async () => {
    await writeJournal(fixtures, 'fixed', conversation(1));
    const journal = await store.open('fixed');
    expect(journal.readOnly).toBe(true);
    await expect(journal.append([userMessage('x')])).rejects.toMatchObject({ kind: 'read_only' });
  });
});

describe('list()', () => {
  it('lists data and fixture sessions with lengths, the data dir winning a shared id', async () => {
    await writeJournal(fixtures, 'shared', conversation(3));
    await writeJournal(fixtures, 'only-fixture', conversation(1));
    await writeFile(
      join(store.dataDir, 'shared.jsonl'),
      [
        JSON.stringify(header('shared', { cwd: '/mine' })),
        ...events([userMessage('x')]).map(encodeEventLine),
      ].join('\n') + '\n',
    );
    const list = await store.list();
    const byId = Object.fromEntries(list.map((s) => [s.header.sessionId, s]));
    expect(Object.keys(byId).sort()).toEqual(['only-fixture', 'shared']);
    expect(byId.shared).toMatchObject({ readOnly: false, length: 1, error: undefined });
    expect(byId.shared!.header.cwd).toBe('/mine');
    expect(byId['only-fixture']).toMatchObject({ readOnly: true, length: 3, error: undefined });
    expect(byId['only-fixture']!.updatedAt).toEqual(new Date(Date.UTC(2026, 0, 1, 0, 0, 2)));
  });

  it('counts an unopened journal from its last line, ignoring a torn one', async () => {
    const list = events(conversation(4));
    const text = journalText('tail', list) + '{"seq":' + list.length + ',"ti';
    await writeFile(join(store.dataDir, 'tail.jsonl'), text);
    const [summary] = await store.list();
    expect(summary).toMatchObject({ length: list.length, error: undefined });
  });

  it('shows a corrupt session with its error and keeps the others', async () => {
    await writeJournal(store.dataDir, 'good', conversation(2));
    const lines = journalText('bad', events(conversation(2))).split('\n');
    lines[2] = '{not json';
    await writeFile(join(store.dataDir, 'bad.jsonl'), lines.join('\n'));
    await expect(store.open('bad')).rejects.toMatchObject({ kind: 'corrupt' });
    const list = await store.list();
    const bad = list.find((s) => s.header.sessionId === 'bad');
    expect(bad?.error).toMatch(/session bad: line 3: not valid JSON/);
    expect(list.find((s) => s.header.sessionId === 'good')).toMatchObject({ error: undefined });
  });

  it('ignores files that are not journals', async () => {
    await writeFile(join(store.dataDir, 'notes.txt'), 'x');
    await writeFile(join(store.dataDir, '.hidden.jsonl'), 'x');
    expect(await store.list()).toEqual([]);
  });
});

describe('extension events', () => {
  it('survive a round trip unchanged, byte for byte', async () => {
    const lines = [
      JSON.stringify(header('ext')),
      '{"seq":0,"time":"2026-01-01T00:00:00.000Z","type":"plugin/note","note":"hi","deep":{"a":[1,{"b":null}]}}',
      '{"seq":1,"time":"2026-01-01T00:00:01.000Z","type":"user/message","content":"not a list"}',
    ];
    await writeFile(join(store.dataDir, 'ext.jsonl'), lines.join('\n') + '\n');
    const journal = await store.open('ext');
    const read = await journal.read(0, 2);
    expect(read.map((e) => e.payload.case)).toEqual(['extension', 'extension']);
    expect(read.map(encodeEventLine)).toEqual(lines.slice(1));
    const [appended] = await journal.append([extension('plugin/note', { note: 'again' })]);
    const reread = await journal.read(2, 3);
    expect(reread).toEqual([appended]);
  });
});

describe('page()', () => {
  /** A store over a data dir whose opens count any scan over 64 KiB as long. */
  async function quickTailStore(log: string[]) {
    return createJournalStore({
      dataDir: join(dir, 'data'),
      catalogCache: false,
      longScanBytes: 64 * 1024,
      log: (line) => log.push(line),
    });
  }

  it('serves the tail read backwards, without baselines, while the index is built', async () => {
    await writeJournal(join(dir, 'data'), 'long', conversation(300));
    const log: string[] = [];
    const quick = await quickTailStore(log);
    try {
      const early = await quick.page('long', undefined, 5);
      expect(early.baselinePending).toBe(true);
      expect(early.baseline).toBeUndefined();
      const journal = await quick.open('long');
      const indexed = await journal.page(undefined, 5);
      expect(indexed.baselinePending).toBeUndefined();
      expect(indexed.baseline?.tokenUsage).toBeDefined();
      expect(early.events).toEqual(indexed.events);
      expect(early.hasMore).toBe(indexed.hasMore);
      expect(log.join('\n')).toMatch(/no index file long\.idx: indexed \d+ events/);
      // Once open, pages come from the index.
      expect((await quick.page('long', undefined, 5)).baselinePending).toBeUndefined();
    } finally {
      await quick.close();
    }
  });

  it('waits for an open that has an index, and for older pages', async () => {
    await writeJournal(join(dir, 'data'), 'long', conversation(300));
    const first = await quickTailStore([]);
    await first.open('long'); // writes the index
    await first.close();
    const again = await quickTailStore([]);
    try {
      const tail = await again.page('long', undefined, 5);
      expect(tail.baselinePending).toBeUndefined();
      expect(tail.baseline).toBeDefined();
      const older = await again.page('long', 40, 5);
      expect(older.events.at(-1)?.seq).toBe(39);
    } finally {
      await again.close();
    }
  });

  const failing: [string, string, string][] = [
    ['an unknown session', 'nobody', 'not_found'],
    ['a bad id', '../x', 'invalid_argument'],
  ];
  it.each(failing)('fails for %s as open() does', async (_name, id, kind) => {
    const quick = await quickTailStore([]);
    try {
      await expect(quick.page(id, undefined, 5)).rejects.toMatchObject({ kind });
    } finally {
      await quick.close();
    }
  });

  it('reports a journal corrupt in its middle on the next call', async () => {
    const list = events(conversation(300));
    const lines = journalText('bad', list).split('\n');
    lines[20] = lines[20]!.replace(/"seq":\d+/, '"seq":7');
    await writeFile(join(dir, 'data', 'bad.jsonl'), lines.join('\n'));
    const quick = await quickTailStore([]);
    try {
      const early = await quick.page('bad', undefined, 5);
      expect(early.baselinePending).toBe(true);
      await expect(quick.page('bad', undefined, 5)).rejects.toMatchObject({ kind: 'corrupt' });
    } finally {
      await quick.close();
    }
  });
});
