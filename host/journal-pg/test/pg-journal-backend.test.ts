import {
  approvalRequested,
  assistantMessage,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { JournalError } from '@dsh/journal';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgJournalBackend,
  createPgJournalStore,
  migrations,
  redactUrl,
} from '../src/index.js';
import {
  freePort,
  freshSchema,
  skipWithoutPostgres,
  startPostgres,
  type TestPostgres,
} from './test-kit.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;

beforeAll(async () => {
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterAll(async () => {
  await postgres?.destroy();
});

const renamed = (title: string): Payload => ({
  case: 'sessionRenamed',
  value: { $typeName: 'dsh.session.v1.SessionRenamed', title },
});

async function failure(promise: Promise<unknown>): Promise<JournalError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof JournalError)) throw new Error(`not a JournalError: ${String(error)}`);
  return error;
}

async function sql<R extends pg.QueryResultRow>(query: string, params: unknown[] = []) {
  const client = new pg.Client({ connectionString: postgres!.url });
  await client.connect();
  try {
    return (await client.query<R>(query, params)).rows;
  } finally {
    await client.end();
  }
}

describe('redactUrl()', () => {
  it.each([
    ['postgres://dsh:secret@db:5432/dsh', 'postgres://dsh:***@db:5432/dsh'],
    ['postgres://db/dsh', 'postgres://db/dsh'],
  ])('shows %s as %s', (url, shown) => {
    expect(redactUrl(url)).toBe(shown);
  });
});

describe('createPgJournalBackend() without a database', () => {
  it('fails with unavailable, naming DSH_STORE / --store and that the database is down', async () => {
    const port = await freePort();
    const error = await failure(
      createPgJournalBackend({ url: `postgres://u:pw@127.0.0.1:${port}/dsh` }),
    );
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('is down or unreachable');
    expect(error.message).toContain('DSH_STORE / --store');
    expect(error.message).toContain(`postgres://u:***@127.0.0.1:${port}/dsh`);
    expect(error.message).not.toContain('pw');
  });

  it('refuses a schema name that is not a plain identifier', async () => {
    const error = await failure(createPgJournalBackend({ url: 'postgres://x/y', schema: 'a;b' }));
    expect(error.kind).toBe('invalid_argument');
  });
});

describe.skipIf(skip)('createPgJournalBackend() migrations', () => {
  it('applies every migration once, recording each version, even when hosts start together', async () => {
    const schema = freshSchema('migrate');
    const url = postgres!.url;
    const backends = await Promise.all(
      [1, 2, 3].map(() => createPgJournalBackend({ url, schema })),
    );
    await Promise.all(backends.map((b) => b.close()));
    const rows = await sql<{ version: number }>(
      `SELECT version FROM ${schema}.schema_migrations ORDER BY version`,
    );
    expect(rows.map((r) => r.version)).toEqual(migrations.map((m) => m.version));
    const again = await createPgJournalBackend({ url, schema });
    await again.close();
    expect(await sql(`SELECT version FROM ${schema}.schema_migrations`)).toHaveLength(
      migrations.length,
    );
  });

  it('refuses a database a newer host migrated, naming the upgrade', async () => {
    const schema = freshSchema('newer');
    const url = postgres!.url;
    await (await createPgJournalBackend({ url, schema })).close();
    await sql(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES (999, 'future')`);
    const error = await failure(createPgJournalBackend({ url, schema }));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('newer than this host');
    expect(error.message).toContain('upgrade dsh');
  });
});

describe.skipIf(skip)('createPgJournalStore() onFirstOpen', () => {
  it('leaves a session another live host wrote last, and recovers it once that host stopped', async () => {
    const schema = freshSchema('owner');
    const url = postgres!.url;
    const a = await createPgJournalBackend({ url, schema });
    const log = await a.create({ cwd: '/w', sessionId: 'owned' });
    await log.append([userMessage('running on a')], { expectedSeq: 0 });
    expect(await a.liveWriter('owned')).toBeUndefined();
    const recovered: string[] = [];
    const onFirstOpen = async (journal: { header: { sessionId: string } }) => {
      recovered.push(journal.header.sessionId);
    };
    const b = await createPgJournalStore({ url, schema, onFirstOpen });
    await b.open('owned');
    expect(recovered).toEqual([]);
    await a.close();
    const c = await createPgJournalStore({ url, schema, onFirstOpen });
    await c.open('owned');
    expect(recovered).toEqual(['owned']);
    await Promise.all([b.close(), c.close()]);
  });
});

describe.skipIf(skip)('PgJournalBackend catalog', () => {
  it('keeps title, model, pending, usage and archived current for list and summary', async () => {
    const backend = await createPgJournalBackend({ url: postgres!.url, schema: freshSchema() });
    try {
      const log = await backend.create({ cwd: '/w', sessionId: 'cat', model: 'header-model' });
      await log.append(
        [
          userMessage('  fix   the\nbuild  '),
          assistantMessage({ turn: 1 }, ['ok'], usage(10, 4)),
          approvalRequested('ap-1', 'call-1', 'shell', 'runs a command'),
        ],
        { expectedSeq: 0 },
      );
      expect(await backend.summary('cat')).toMatchObject({
        title: 'fix the build',
        model: 'demo',
        pending: 1,
        usage: expect.objectContaining({ inputTokens: 10n, outputTokens: 4n }),
        archived: false,
        length: 3,
      });
      await log.append([renamed('Renamed')], { expectedSeq: 3 });
      const [listed] = await backend.list();
      expect(listed).toMatchObject({ title: 'Renamed', length: 4 });
      const [row] = await sql<{ list_title: string; pending: number }>(
        `SELECT list_title, pending FROM ${backend.schema}.sessions WHERE session_id = 'cat'`,
      );
      expect(row).toEqual({ list_title: 'Renamed', pending: 1 });
    } finally {
      await backend.close();
    }
  });

  it('refuses the append of a writer another host appended after, writing nothing', async () => {
    const schema = freshSchema();
    const a = await createPgJournalBackend({ url: postgres!.url, schema });
    const b = await createPgJournalBackend({ url: postgres!.url, schema });
    try {
      const logA = await a.create({ cwd: '/w', sessionId: 'race' });
      await logA.append([userMessage('a0')], { expectedSeq: 0 });
      const logB = await b.open('race');
      await logB.append([userMessage('b1')], { expectedSeq: 1 });
      // A's last append is its base, but B's came after it: the conditional write misses.
      const error = await failure(logA.append([userMessage('a1')], { expectedSeq: 1 }));
      expect(error.kind).toBe('conflict');
      const [, second] = await logA.read(0, 2);
      expect(second?.payload).toEqual(userMessage('b1'));
      expect((await logA.append([userMessage('a2')], { expectedSeq: 2 }))[0]?.seq).toBe(2);
      expect((await b.summary('race'))?.length).toBe(3);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('refuses a second event at a taken (session, seq) by the primary key, not only the lock', async () => {
    const backend = await createPgJournalBackend({ url: postgres!.url, schema: freshSchema() });
    try {
      const log = await backend.create({ cwd: '/w', sessionId: 'pk' });
      await log.append([userMessage('a')], { expectedSeq: 0 });
      const error = await sql(
        `INSERT INTO ${backend.schema}.events (session_id, seq, type, end_bytes, line)
         VALUES ('pk', 0, 'user/message', 1, '{}')`,
      ).then(
        () => undefined,
        (e: { code?: string }) => e.code,
      );
      expect(error).toBe('23505');
      expect(await log.read(0, 1)).toHaveLength(1);
    } finally {
      await backend.close();
    }
  });
});
