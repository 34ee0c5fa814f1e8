import { mkdir, readdir, readFile, stat, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Code } from '@connectrpc/connect';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { events, toolResult, userMessage } from '@dsh/fixtures';
import { SessionService } from '@dsh/gen/service';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { JournalError, type JournalStore } from '@dsh/journal';
import { onAppended } from '@dsh/journal/test-kit';
import { createJournalStore } from '@dsh/journal-file';
import { startServer, type RunningServer } from '../src/index.js';
import { rpcError } from './test-host.js';
import { conversation, journalText } from '@dsh/journal-file/test-kit';
import { mountTmpfs, tmpfsMissing, type Tmpfs } from '@dsh/journal-file/test-kit';

const missing = tmpfsMissing();
if (missing !== undefined) console.warn(`skipping the disk-full and read-only tests: ${missing}`);

let disk: Tmpfs;
let dataDir: string;
let store: JournalStore | undefined;
let server: RunningServer | undefined;

beforeEach(async () => {
  if (missing !== undefined) return;
  disk = await mountTmpfs(4 * 1024 * 1024);
  dataDir = join(disk.dir, 'sessions');
  await mkdir(dataDir);
});
afterEach(async () => {
  if (missing !== undefined) return;
  await server?.close();
  await store?.close();
  server = undefined;
  store = undefined;
  await disk.unmount();
});

async function serve(s: JournalStore) {
  server = await startServer({ store: s, port: 0, defaultCwd: disk.dir, log: () => {} });
  return createClient(
    SessionService,
    createConnectTransport({ baseUrl: server.url, httpVersion: '1.1' }),
  );
}

const fullDisk = (dir: string) =>
  new RegExp(
    `the disk holding the data dir ${dir.replaceAll('/', '\\/')} is full \\(ENOSPC\\): free space on it, then retry$`,
  );

describe.skipIf(missing !== undefined)('a full disk', () => {
  it('fails create() with no_space and leaves no journal or temp file behind', async () => {
    store = await createJournalStore({ dataDir });
    await disk.fill();
    const error = await store.create({ cwd: '/work', sessionId: 'new' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(JournalError);
    expect(error).toMatchObject({ kind: 'no_space' });
    expect((error as Error).message).toMatch(/^cannot create session new: /);
    expect((error as Error).message).toMatch(fullDisk(dataDir));
    expect(await readdir(dataDir)).toEqual([]);
    expect(await store.list()).toEqual([]);
    await disk.free();
    expect((await store.create({ cwd: '/work', sessionId: 'new' })).length).toBe(0);
  });

  it('fails an append with no_space, cuts a partial write back, and appends once space is freed', async () => {
    store = await createJournalStore({ dataDir });
    const journal = await store.create({ cwd: '/work', sessionId: 's' });
    const first = await journal.append(conversation(2));
    const path = join(dataDir, 's.jsonl');
    const size = (await stat(path)).size;
    const seen: number[] = [];
    await onAppended(journal, (list) => seen.push(...list.map((e) => e.seq)));
    // Leave 64 KiB free, so the 512 KiB event is written in part before ENOSPC.
    await disk.fill();
    const filler = join(disk.dir, '.filler');
    await truncate(filler, (await stat(filler)).size - 64 * 1024);
    const big = toolResult('call-big', 'b'.repeat(512 * 1024));
    const failures = await Promise.all([
      journal.append([userMessage('one')]).catch((e: unknown) => e),
      journal.append([big]).catch((e: unknown) => e),
    ]);
    for (const failure of failures) {
      expect(failure).toMatchObject({ kind: 'no_space' });
      expect((failure as Error).message).toMatch(/^session s: cannot append: /);
    }
    expect((await stat(path)).size).toBe(size);
    expect(journal.length).toBe(first.length);
    expect(seen).toEqual([]);
    await disk.free();
    const later = await journal.append([userMessage('after'), big]);
    expect(later.map((e) => e.seq)).toEqual([first.length, first.length + 1]);
    await vi.waitFor(() => expect(seen).toEqual([first.length, first.length + 1]));
    await store.close();
    store = await createJournalStore({ dataDir });
    const reopened = await store.open('s');
    expect(await reopened.read(0, reopened.length)).toEqual([...first, ...later]);
  });

  it('answers CreateSession with resource_exhausted naming the data dir, and keeps serving', async () => {
    store = await createJournalStore({ dataDir });
    const old = await store.create({ cwd: '/work', sessionId: 'old' });
    await old.append(conversation(1));
    const client = await serve(store);
    await disk.fill();
    const error = await rpcError(client.createSession({ cwd: disk.dir }));
    expect(error?.code).toBe(Code.ResourceExhausted);
    expect(error?.rawMessage).toMatch(fullDisk(dataDir));
    expect((await readdir(dataDir)).sort()).toEqual(['old.jsonl']);
    const listed = await client.listSessions({});
    expect(listed.sessions.map((s) => [s.id, s.error])).toEqual([['old', '']]);
    expect((await client.page({ sessionId: 'old' })).events.length).toBeGreaterThan(0);
  });
});

describe.skipIf(missing !== undefined)('a read-only data dir', () => {
  beforeEach(async () => {
    const good = events(conversation(2));
    await writeFile(join(dataDir, 'a.jsonl'), journalText('a', good));
    // A torn tail, which a writable open would cut off.
    await writeFile(join(dataDir, 'torn.jsonl'), journalText('torn', good) + '{"seq":');
    disk.remount('ro');
  });

  it('serves reads and refuses writes with read_only naming the data dir', async () => {
    store = await createJournalStore({ dataDir });
    const listed = await store.list();
    expect(listed.map((s) => [s.header.sessionId, s.readOnly, s.error]).sort()).toEqual([
      ['a', true, undefined],
      ['torn', true, undefined],
    ]);
    const journal = await store.open('a');
    expect(journal.readOnly).toBe(true);
    expect((await journal.page(undefined, 50)).events.length).toBe(journal.length);
    const torn = await store.open('torn');
    expect(torn.length).toBe(journal.length);
    const appendError = await journal.append([userMessage('x')]).catch((e: unknown) => e);
    expect(appendError).toMatchObject({ kind: 'read_only' });
    expect((appendError as Error).message).toMatch(
      /^session a cannot be written: session a: cannot open .*a\.jsonl: the data dir .* is on a read-only file system \(EROFS\): its sessions can be read but not written; remount it read-write, or serve a writable --data-dir$/,
    );
    const createError = await store.create({ cwd: '/work' }).catch((e: unknown) => e);
    expect(createError).toMatchObject({ kind: 'read_only' });
    expect((createError as Error).message).toContain(
      `the data dir ${dataDir} is on a read-only file system`,
    );
    disk.remount('rw');
    expect(await readFile(join(dataDir, 'torn.jsonl'), 'utf8')).toMatch(/\{"seq":$/);
  });

  it('maps a refused write to failed_precondition over RPC while Page and Follow work', async () => {
    store = await createJournalStore({ dataDir });
    const client = await serve(store);
    const listed = await client.listSessions({});
    expect(listed.sessions.map((s) => s.readOnly)).toEqual([true, true]);
    expect((await client.page({ sessionId: 'a' })).events.length).toBeGreaterThan(0);
    const stream = client.follow({ sessionId: 'a' })[Symbol.asyncIterator]();
    expect((await stream.next()).value?.frame.case).toBe('opening');
    expect((await stream.next()).value?.frame.case).toBe('event');
    await stream.return?.();
    const error = await rpcError(client.createSession({ cwd: disk.dir }));
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.rawMessage).toMatch(/read-only file system \(EROFS\)/);
  });
});
