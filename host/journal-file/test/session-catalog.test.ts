import { appendFile, readdir, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  approvalRequested,
  approvalResolved,
  assistantMessage,
  events,
  questionRequested,
  usage,
  userMessage,
} from '@dsh/fixtures';
import { create } from '@bufbuild/protobuf';
import {
  ApprovalDecision,
  InputQueuedSchema,
  InputUnqueuedSchema,
  UnqueueReason,
} from '@dsh/gen/events';
import { encodeEventLine, eventPayloads, type EventPayload, type StoreChange } from '@dsh/journal';
import { onStoreChange } from '@dsh/journal/test-kit';
import { createJournalStore, type FileJournalStore } from '../src/index.js';
import { rescanDelayMs, SessionCatalog } from '../src/session-catalog.js';
import { tempDir, writeJournal } from './journal-test-kit.js';

let dir: string;
let cleanup: () => Promise<void>;
let store: FileJournalStore;
const open = () => createJournalStore({ dataDir: join(dir, 'data') });

beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
  store = await open();
});
afterEach(async () => {
  await store.close();
  await cleanup();
});

const queued = (queueId: string): EventPayload => ({
  case: 'inputQueued',
  value: create(InputQueuedSchema, { queueId }),
});
const unqueued = (queueId: string): EventPayload => ({
  case: 'inputUnqueued',
  value: create(InputUnqueuedSchema, { queueId, reason: UnqueueReason.STARTED }),
});

const asking = [
  userMessage('  Fix the\n  flaky   test  '),
  assistantMessage({ turn: 1 }, ['looking'], usage(10, 3)),
  approvalRequested('a1', 'c1', 'bash', 'runs a command'),
  questionRequested('q1', 'c2', [{ question: 'which one?' }]),
  userMessage('second prompt'),
];

describe('list() from the catalog', () => {
  it('folds title, pending, usage and model from appends', async () => {
    const journal = await store.create({ cwd: '/w', model: 'header-model' });
    await journal.append(asking);
    const summary = await store.summary(journal.header.sessionId);
    expect(summary).toMatchObject({
      title: 'Fix the flaky test',
      pending: 2,
      model: 'demo',
      length: 5,
      archived: false,
    });
    expect(summary?.usage).toMatchObject({ inputTokens: 10n, outputTokens: 3n, messages: 1 });
    await journal.append([approvalResolved('a1', ApprovalDecision.ALLOW)]);
    expect(await store.summary(journal.header.sessionId)).toMatchObject({ pending: 1 });
  });

  it('knows the inputs waiting in the queue, after appends and after a restart', async () => {
    const journal = await store.create({ cwd: '/w' });
    const id = journal.header.sessionId;
    expect(await store.summary(id)).toMatchObject({ waiting: 0 });
    await journal.append([queued('q1'), queued('q2'), queued('q1')]);
    expect(await store.summary(id)).toMatchObject({ waiting: 2 });
    await journal.append([unqueued('q1')]);
    expect(await store.summary(id)).toMatchObject({ waiting: 1 });
    await store.close();
    store = await open();
    expect(await store.summary(id)).toMatchObject({ waiting: 1 });
    await (await store.open(id)).append([unqueued('q2'), unqueued('q9')]);
    expect(await store.summary(id)).toMatchObject({ waiting: 0 });
  });

  it('keeps renames and archive in the journal, the latest winning', async () => {
    const journal = await store.create({ cwd: '/w' });
    const id = journal.header.sessionId;
    await journal.append([userMessage('first prompt'), eventPayloads.sessionRenamed('Named')]);
    expect(await store.summary(id)).toMatchObject({ title: 'Named', archived: false });
    await journal.append([eventPayloads.sessionArchived(true), eventPayloads.sessionRenamed('')]);
    expect(await store.summary(id)).toMatchObject({ title: 'first prompt', archived: true });
    const lines = (await readFile(join(store.dataDir, `${id}.jsonl`), 'utf8')).trim().split('\n');
    expect(lines.map((l) => (JSON.parse(l) as { type?: string }).type)).toEqual([
      undefined,
      'user/message',
      'session/renamed',
      'session/archived',
      'session/renamed',
    ]);
  });

  it('finds a session written into the data dir while it runs, and its growth', async () => {
    const changes: StoreChange[] = [];
    await onStoreChange(store, (c) => changes.push(c));
    const list = events(asking);
    // Written the way an importer in another process does: a new file, then appends.
    await writeJournal(join(dir, 'data'), 'imported', asking.slice(0, 2));
    await vi.waitFor(() =>
      expect(changes).toContainEqual({ kind: 'added', sessionId: 'imported' }),
    );
    expect(await store.summary('imported')).toMatchObject({ length: 2, pending: 0 });
    const more = list.slice(2).map((e) => encodeEventLine(e) + '\n');
    await appendFile(join(store.dataDir, 'imported.jsonl'), more.join(''));
    await vi.waitFor(async () =>
      expect(await store.summary('imported')).toMatchObject({ length: 5, pending: 2 }),
    );
    expect(changes).toContainEqual({ kind: 'updated', sessionId: 'imported' });
  });

  it('lists a file added or removed right after a list of a dir unchanged for long', async () => {
    const data = join(dir, 'data');
    const ids = async () => (await store.list()).map((s) => s.header.sessionId).sort();
    await writeJournal(data, 'first', asking.slice(0, 1));
    const hourAgo = new Date(Date.now() - 3_600_000);
    await utimes(data, hourAgo, hourAgo);
    expect(await ids()).toEqual(['first']);
    expect(await ids()).toEqual(['first']); // the dir is not listed again
    await writeJournal(data, 'second', asking.slice(0, 1));
    expect(await ids()).toEqual(['first', 'second']);
    await utimes(data, hourAgo, hourAgo);
    expect(await ids()).toEqual(['first', 'second']);
    await rename(join(data, 'first.jsonl'), join(dir, 'first.jsonl'));
    expect(await ids()).toEqual(['second']);
  });

  // The catalog alone (no watcher, no rescan): a file that appears while the dir keeps
  // its mtime is listed only when `sync` reads the dir again.
  it.each([
    { stamp: 'sub-second, 400 ms ago', ageMs: 400, whole: false, readAgain: false },
    { stamp: 'sub-second, 30 ms ago', ageMs: 30, whole: false, readAgain: true },
    { stamp: 'whole second, 1-1.5 s ago', ageMs: 1_000, whole: true, readAgain: true },
    { stamp: 'whole second, 3-3.5 s ago', ageMs: 3_000, whole: true, readAgain: false },
  ])('SessionCatalog.sync reads a dir stamped $stamp again: $readAgain', async (row) => {
    const data = join(dir, 'data');
    const catalog = new SessionCatalog(data, [], () => {}, false);
    const ids = async () => {
      await catalog.sync();
      return [...catalog.entries.keys()].sort();
    };
    // A whole-second stamp is taken in the first half of a second, so its age stays
    // within half a second of `ageMs` while the row runs.
    while (row.whole && Date.now() % 1000 >= 500) await new Promise((r) => setTimeout(r, 20));
    const ms = Date.now() - row.ageMs;
    // Seconds for utimes: whole, or with a part below the millisecond that no clock rounds off.
    const stamp = row.whole ? Math.floor(ms / 1000) : ms / 1000 + 0.0000005;
    await writeJournal(data, 'first', asking.slice(0, 1));
    await utimes(data, stamp, stamp);
    expect(await ids()).toEqual(['first']);
    await writeJournal(data, 'second', asking.slice(0, 1));
    await utimes(data, stamp, stamp);
    expect(await ids()).toEqual(row.readAgain ? ['first', 'second'] : ['first']);
  });

  it.each([
    { files: 0, ms: 10_000 },
    { files: 2_000, ms: 10_000 },
    { files: 10_000, ms: 50_000 },
    { files: 100_000, ms: 500_000 },
  ])('rescanDelayMs($files) is $ms: about 0.5% of a core on rescans', ({ files, ms }) => {
    expect(rescanDelayMs(files)).toBe(ms);
  });

  it('reports a file moved away as removed', async () => {
    const changes: StoreChange[] = [];
    await writeJournal(join(dir, 'data'), 'gone', asking.slice(0, 1));
    expect((await store.list()).map((s) => s.header.sessionId)).toEqual(['gone']);
    await onStoreChange(store, (c) => changes.push(c));
    await rename(join(store.dataDir, 'gone.jsonl'), join(dir, 'elsewhere.jsonl'));
    await vi.waitFor(() => expect(changes).toContainEqual({ kind: 'removed', sessionId: 'gone' }));
    expect(await store.list()).toEqual([]);
  });
});

describe('remove()', () => {
  it('moves the journal to the trash and reports removed', async () => {
    const journal = await store.create({ cwd: '/w' });
    const id = journal.header.sessionId;
    await journal.append(asking.slice(0, 1));
    const changes: StoreChange[] = [];
    await onStoreChange(store, (c) => changes.push(c));
    const trash = await store.remove(id);
    expect(trash.startsWith(join(store.dataDir, 'trash', id))).toBe(true);
    expect(await readdir(trash)).toEqual([`${id}.jsonl`]);
    expect(await store.list()).toEqual([]);
    await expect(store.open(id)).rejects.toMatchObject({ kind: 'not_found' });
    await vi.waitFor(() => expect(changes).toContainEqual({ kind: 'removed', sessionId: id }));
  });
});

describe('the catalog cache', () => {
  it('gives the same summaries after a restart, and after the cache is damaged', async () => {
    const journal = await store.create({ cwd: '/w' });
    await journal.append(asking);
    await writeJournal(join(dir, 'data'), 'other', asking.slice(0, 3));
    const before = await store.list();
    await store.close();
    expect(JSON.parse(await readFile(join(dir, 'data', 'catalog.json'), 'utf8'))).toMatchObject({
      version: 2,
    });
    store = await open();
    expect(sorted(await store.list())).toEqual(sorted(before));
    await store.close();
    await writeFile(join(dir, 'data', 'catalog.json'), '{"version":2,"sessions":{"other":7');
    store = await open();
    await vi.waitFor(async () => expect(sorted(await store.list())).toEqual(sorted(before)));
  });

  it('reads a file that grew while the host was down from where the cache stopped', async () => {
    const list = events(asking);
    await writeJournal(join(dir, 'data'), 'grown', asking.slice(0, 2));
    expect(await store.summary('grown')).toMatchObject({ length: 2 });
    await store.close();
    const more = list.slice(2).map((e) => encodeEventLine(e) + '\n');
    await appendFile(join(dir, 'data', 'grown.jsonl'), more.join(''));
    store = await open();
    await store.verified();
    expect(await store.summary('grown')).toMatchObject({ length: 5, pending: 2 });
  });

  it('lists cached sessions at start, then checks them: a grown file is updated once verified', async () => {
    const list = events(asking);
    await writeJournal(join(dir, 'data'), 'grown', asking.slice(0, 2));
    await writeJournal(join(dir, 'data'), 'same', asking.slice(0, 3));
    expect(await store.list()).toHaveLength(2);
    await store.close();
    await appendFile(
      join(dir, 'data', 'grown.jsonl'),
      list
        .slice(2)
        .map((e) => encodeEventLine(e) + '\n')
        .join(''),
    );
    await writeJournal(join(dir, 'data'), 'added', asking.slice(0, 1));
    await rename(join(dir, 'data', 'same.jsonl'), join(dir, 'same.jsonl'));
    store = await open();
    // A file the cache does not know is looked at before the start resolves; a gone one is not listed.
    const ids = (await store.list()).map((s) => s.header.sessionId).sort();
    expect(ids).toEqual(['added', 'grown']);
    await store.verified();
    expect(await store.summary('grown')).toMatchObject({ length: 5, pending: 2 });
  });
});

function sorted<T extends { header: { sessionId: string } }>(list: T[]): T[] {
  return [...list].sort((a, b) => a.header.sessionId.localeCompare(b.header.sessionId));
}
