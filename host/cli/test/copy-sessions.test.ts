import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { userMessage } from '@dsh/fixtures';
import { conversation } from '@dsh/journal/conformance';
import type { JournalStore } from '@dsh/journal';
import { createJournalStore } from '@dsh/journal-file';
import { createPgJournalStore } from '@dsh/journal-pg';
import {
  freshSchema,
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from '@dsh/journal-pg/test-kit';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { copySessions } from '../src/copy-sessions.js';
import { runDsh } from './dsh-process.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;
let root: string;
const open: JournalStore[] = [];

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dsh-copy-'));
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  await postgres?.destroy();
  await rm(root, { recursive: true, force: true });
});

const files = async (name: string) => {
  const store = await createJournalStore({ dataDir: join(root, name) });
  open.push(store);
  return store;
};
const database = async (schema: string) => {
  const store = await createPgJournalStore({ url: postgres!.url, schema });
  open.push(store);
  return store;
};

/** Every session of `store` with its header and every event. */
async function contents(store: JournalStore) {
  const out: Record<string, unknown> = {};
  for (const summary of await store.list()) {
    const journal = await store.open(summary.header.sessionId);
    const { length } = await journal.head();
    out[summary.header.sessionId] = {
      header: journal.header,
      events: await journal.read(0, length),
    };
  }
  return out;
}

describe.skipIf(skip)('copySessions()', () => {
  it('copies file journals into the database and back, resumes, and reports a divergence', async () => {
    const source = await files('source');
    const parent = await source.create({ cwd: '/w', sessionId: 'parent', title: 'P' });
    await parent.append(conversation(40), {
      times: conversation(40).map((_, i) => new Date(Date.UTC(2025, 0, 1, 0, 0, i))),
    });
    const child = await source.create({ cwd: '/w', sessionId: 'child', parentId: 'parent' });
    await child.append(conversation(3));
    await source.create({ cwd: '/w', sessionId: 'empty', origin: 'codex' });

    const schema = freshSchema('copy');
    const target = await database(schema);
    const first = await copySessions(source, target, { chunk: 50 });
    expect(first).toMatchObject({ created: 3, complete: 0, failed: [] });
    expect(await contents(target)).toEqual(await contents(source));
    expect(await (await target.open('parent')).page(undefined, 10)).toEqual(
      await parent.page(undefined, 10),
    );

    expect(await copySessions(source, target)).toMatchObject({
      created: 0,
      events: 0,
      complete: 3,
    });
    await parent.append([userMessage('later')]);
    expect(await copySessions(source, target)).toMatchObject({ created: 0, events: 1 });
    expect(await contents(target)).toEqual(await contents(source));

    const backup = await files('backup');
    await copySessions(target, backup);
    expect(await contents(backup)).toEqual(await contents(source));

    await (await target.open('child')).append([userMessage('only in the database')]);
    await child.append([userMessage('only in the files')]);
    const diverged = await copySessions(source, target);
    expect(diverged.failed).toEqual([
      { sessionId: 'child', error: expect.stringMatching(/event \d+ differs .* it diverged/) },
    ]);
  });

  it('runs as dsh migrate, twice, with a summary line', async () => {
    const source = await files('cli-source');
    const journal = await source.create({ cwd: '/w', sessionId: 'cli' });
    await journal.append(conversation(5));
    await source.close();
    open.splice(open.indexOf(source), 1);
    const url = postgres!.url;
    const args = ['migrate', '--from', join(root, 'cli-source'), '--to', url];
    const home = root;
    const once = await runDsh(args, { cwd: root, home });
    expect(once.output).toMatch(/copied \d+ event\(s\), 1 new session\(s\), 0 already complete/);
    expect(once.code).toBe(0);
    const twice = await runDsh(args, { cwd: root, home });
    expect(twice.output).toMatch(/copied 0 event\(s\), 0 new session\(s\), 1 already complete/);
    expect(twice.code).toBe(0);
  });
});
