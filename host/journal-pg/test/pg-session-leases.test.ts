import type { JsonValue } from '@bufbuild/protobuf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  createPgJournalBackend,
  type ForwardedAnswer,
  type LeaseHandlers,
  type PgJournalBackend,
} from '../src/index.js';
import { freshSchema, skipWithoutPostgres, startPostgres, type TestPostgres } from './test-kit.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;
const open: PgJournalBackend[] = [];

beforeAll(async () => {
  if (!skip) postgres = await startPostgres();
  // initdb takes seconds, more on a machine busy with the rest of the suite.
}, 120_000);
afterEach(async () => {
  await Promise.all(open.splice(0).map((b) => b.close()));
});
afterAll(async () => {
  await postgres?.destroy();
});

/** Two hosts on one schema, with a short lease, and a session. */
async function twoHosts(leaseMs = 1000) {
  const schema = freshSchema('lease');
  const a = await createPgJournalBackend({ url: postgres!.url, schema, leaseMs });
  const b = await createPgJournalBackend({ url: postgres!.url, schema, leaseMs });
  open.push(a, b);
  const { header } = await a.create({ cwd: '/' });
  return { a, b, sessionId: header.sessionId };
}

/** What a host's handlers were told. */
interface Told {
  readonly inputs: JsonValue[];
  readonly took: string[];
  readonly gone: string[];
}

/** Handlers that record what they are told and answer each input with its body. */
function recorder(): { told: Told; handlers: LeaseHandlers } {
  const told: Told = { inputs: [], took: [], gone: [] };
  const handlers: LeaseHandlers = {
    input(_sessionId, body): Promise<ForwardedAnswer> {
      told.inputs.push(body);
      return Promise.resolve({ ok: { echo: body } });
    },
    adopted: (sessionId) => void told.took.push(sessionId),
    lost: (sessionId) => void told.gone.push(sessionId),
    status: () => undefined,
  };
  return { told, handlers };
}

describe.skipIf(skip)('PgSessionLeases', () => {
  it('claim(): gives a session to one host at a time and names the holder to the other', async () => {
    const { a, b, sessionId } = await twoHosts();
    expect(await a.leases.claim(sessionId)).toEqual({ owned: true });
    expect(await a.leases.claim(sessionId)).toEqual({ owned: true });
    const other = await b.leases.claim(sessionId);
    expect(other).toMatchObject({
      owned: false,
      owner: expect.stringContaining(`pid ${process.pid}`),
    });
    expect(await b.leases.holder(sessionId)).toBe(a.hosts.name);
    expect(await a.leases.release(sessionId)).toBe(true);
    expect(await b.leases.claim(sessionId)).toEqual({ owned: true });
  });

  it('forward(): the owner runs each input once and the sender gets its answer', async () => {
    const { a, b, sessionId } = await twoHosts(5000);
    const owner = recorder();
    a.leases.serve(owner.handlers);
    b.leases.serve(recorder().handlers);
    await a.leases.claim(sessionId);
    const answers = await Promise.all([1, 2, 3].map((n) => b.leases.forward(sessionId, { n })));
    expect(answers).toEqual([1, 2, 3].map((n) => ({ ok: { echo: { n } } })));
    expect(owner.told.inputs).toHaveLength(3);
    expect(owner.told.inputs).toEqual(expect.arrayContaining([{ n: 1 }, { n: 2 }, { n: 3 }]));
    // Every input answered, the owner gives the lease back.
    expect(await a.leases.release(sessionId)).toBe(true);
  });

  it('sweeps the lease of a host that stopped renewing to another, which runs its waiting input', async () => {
    const { a, b, sessionId } = await twoHosts(1000);
    const heir = recorder();
    b.leases.serve(heir.handlers);
    // A takes the lease and never renews it (it serves nothing): it stopped.
    expect(await a.leases.claim(sessionId)).toEqual({ owned: true });
    const started = Date.now();
    const answer = await b.leases.forward(sessionId, { after: 'expiry' });
    expect(answer).toEqual({ ok: { echo: { after: 'expiry' } } });
    expect(heir.told.took).toContain(sessionId);
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
    expect(await a.leases.holder(sessionId)).toBe(b.hosts.name);
  });

  it('tells the old owner it lost a lease another host took after expiry', async () => {
    const { a, b, sessionId } = await twoHosts(1000);
    const old = recorder();
    await a.leases.claim(sessionId);
    // The renewal is late (a partition): B takes the expired lease first.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    expect(await b.leases.claim(sessionId)).toEqual({ owned: true });
    a.leases.serve(old.handlers);
    await expect.poll(() => old.told.gone, { timeout: 5000 }).toEqual([sessionId]);
  });
});
