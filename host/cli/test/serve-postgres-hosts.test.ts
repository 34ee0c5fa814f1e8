import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ApprovalDecision, UnqueueReason, type SessionEvent } from '@dsh/gen/events';
import { PromptMode, SessionService } from '@dsh/gen/service';
import { skipWithoutPostgres, startPostgres, type TestPostgres } from '@dsh/journal-pg/test-kit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDsh, type DshProcess } from './dsh-process.js';
import { followSession, type SessionFollower } from './session-follower.js';

const skip = skipWithoutPostgres();
let postgres: TestPostgres | undefined;
let root: string;
const hosts: DshProcess[] = [];
const followers: SessionFollower[] = [];
let databases = 0;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'dsh-pg-hosts-'));
  await mkdir(join(root, 'home'));
  if (!skip) postgres = await startPostgres();
}, 120_000);
afterAll(async () => {
  await Promise.all(followers.map((f) => f.stop()));
  await Promise.all(hosts.map((h) => h.stop()));
  await postgres?.destroy();
  await rm(root, { recursive: true, force: true });
});

type SessionClient = Client<typeof SessionService>;

const text = (value: string) => [{ block: { case: 'text' as const, value: { text: value } } }];
const client = (url: string): SessionClient =>
  createClient(SessionService, createConnectTransport({ baseUrl: url, httpVersion: '1.1' }));

/** Hosts `names` on a database of their own, with the lease time `leaseMs`. */
function startHosts(leaseMs: number, ...names: string[]): Promise<DshProcess[]> {
  return startHostsWith({}, leaseMs, ...names);
}

/** `startHosts` with more environment for each host. */
async function startHostsWith(
  env: Record<string, string>,
  leaseMs: number,
  ...names: string[]
): Promise<DshProcess[]> {
  const url = await postgres!.createDatabase(`hosts${++databases}`);
  return Promise.all(
    names.map(async (name) => {
      const host = await startDsh({
        cwd: root,
        home: join(root, 'home'),
        dataDir: join(root, `${name}${databases}`),
        args: ['--store', url],
        env: { DSH_LEASE_MS: String(leaseMs), ...env },
      });
      hosts.push(host);
      return host;
    }),
  );
}

function follow(on: SessionClient, sessionId: string): SessionFollower {
  const follower = followSession(on, sessionId, () => undefined);
  followers.push(follower);
  return follower;
}

const is =
  (kind: SessionEvent['payload']['case']) =>
  (e: SessionEvent): boolean =>
    e.payload.case === kind;
const ofKind = (events: readonly SessionEvent[], kind: SessionEvent['payload']['case']) =>
  events.filter(is(kind));

/** The session's events as `Follow` gave them: seq 0, 1, 2... with none twice. */
function expectContiguous(events: readonly SessionEvent[]): void {
  const seqs = events.map((e) => e.seq);
  expect(seqs).toEqual(seqs.map((_, i) => i));
}

/** A session created on `on`, with a turn of the demo model waiting for its first approval. */
async function turnWaitingForApproval(on: SessionClient, watcher: SessionClient) {
  const { session } = await on.createSession({ cwd: root, title: 'across hosts' });
  const sessionId = session!.id;
  const follower = follow(watcher, sessionId);
  const answer = await on.prompt({ sessionId, content: text('hello'), mode: PromptMode.QUEUE });
  expect(answer.started).toBe(true);
  const asked = await follower.waitFor('approval/requested', is('approvalRequested'), 45_000);
  const approvalId =
    asked.payload.case === 'approvalRequested' ? asked.payload.value.approvalId : '';
  return { sessionId, follower, approvalId };
}

describe.skipIf(skip)('dsh serve --store postgres://... on several hosts', () => {
  it('runs input sent to host B on host A, which owns the session: once, in order', async () => {
    const [a, b] = await startHosts(3000, 'a', 'b');
    const [onA, onB] = [client(a!.url), client(b!.url)];
    const { sessionId, follower, approvalId } = await turnWaitingForApproval(onA, onB);
    const runningOnB = async () =>
      (await onB.listSessions({})).sessions.find((s) => s.id === sessionId)?.running;
    await expect.poll(runningOnB, { timeout: 10_000 }).toBe(true);
    const deleting = await onB.deleteSession({ sessionId }).then(
      () => 'deleted',
      (error: Error) => error.message,
    );
    expect(deleting).toMatch(/is running a turn/);
    // A owns the running session: B stores each input for A and returns A's answer.
    const queued = await onB.prompt({ sessionId, content: text('second'), mode: PromptMode.QUEUE });
    expect(queued).toMatchObject({ started: false, queuePosition: 1 });
    expect(queued.queueId).not.toBe('');
    await onB.respond({
      sessionId,
      response: {
        case: 'approval',
        value: { approvalId, decision: ApprovalDecision.ALLOW },
      },
    });
    await follower.waitFor('approval/resolved', is('approvalResolved'));
    const refused = await onB
      .respond({
        sessionId,
        response: { case: 'approval', value: { approvalId, decision: ApprovalDecision.ALLOW } },
      })
      .then(
        () => undefined,
        (error: Error) => error.message,
      );
    expect(refused).toMatch(/approval/);
    const cancelled = await onB.cancel({ sessionId });
    expect(cancelled.cancelled).toBe(true);
    expect(cancelled.cleared).toBe(1);
    const firstEnd = await follower.waitFor('turn/end', is('turnEnd'), 45_000);
    const events = follower.events.slice(0, firstEnd.seq + 1);
    await expect.poll(runningOnB, { timeout: 10_000 }).toBe(false);
    expectContiguous(events);
    expect(ofKind(events, 'userMessage')).toHaveLength(1);
    expect(ofKind(events, 'inputQueued')).toHaveLength(1);
    const resolved = ofKind(events, 'approvalResolved').flatMap((e) =>
      e.payload.case === 'approvalResolved' && e.payload.value.approvalId === approvalId
        ? [e.payload.value.decision]
        : [],
    );
    expect(resolved).toEqual([ApprovalDecision.ALLOW]);
    expect(ofKind(events, 'turnStart')).toHaveLength(1);
    expect(ofKind(events, 'agentError')).toHaveLength(0);
    const pageA = await onA.page({ sessionId, maxMessages: 50 });
    expect(await onB.page({ sessionId, maxMessages: 50 })).toEqual(pageA);
    // Idle, the session has no owner: a prompt to B runs it on B.
    const next = await onB.prompt({ sessionId, content: text('third'), mode: PromptMode.QUEUE });
    expect(next.started).toBe(true);
    await onA.cancel({ sessionId });
    await follower.waitFor('second turn/end', (e) => is('turnEnd')(e) && e.seq > firstEnd.seq);
  }, 120_000);

  it('closes the turn of an owner killed mid-turn on another host, which runs the session next', async () => {
    const [a, b] = await startHosts(2000, 'a', 'b');
    const [onA, onB] = [client(a!.url), client(b!.url)];
    const { sessionId, follower } = await turnWaitingForApproval(onA, onB);
    const killedAt = Date.now();
    await a!.kill();
    const stopped = await follower.waitFor(
      'agent/error host_stopped',
      (e) => e.payload.case === 'agentError' && e.payload.value.code === 'host_stopped',
      30_000,
    );
    const end = await follower.waitFor('turn/end', (e) => is('turnEnd')(e) && e.seq > stopped.seq);
    // The lease (2 s) expired and B's sweep (every 0.5 s) took it.
    expect(Date.now() - killedAt).toBeLessThan(20_000);
    const events = follower.events;
    const cancelledApproval = ofKind(events, 'approvalResolved').at(-1);
    expect(
      cancelledApproval?.payload.case === 'approvalResolved' && cancelledApproval.payload.value,
    ).toMatchObject({ decision: ApprovalDecision.CANCELLED });
    expect(ofKind(events, 'toolResult').length).toBeGreaterThan(0);
    const again = await onB.prompt({ sessionId, content: text('again'), mode: PromptMode.QUEUE });
    expect(again.started).toBe(true);
    await follower.waitFor('turn/start 2', (e) => is('turnStart')(e) && e.seq > end.seq);
    await onB.cancel({ sessionId });
    await follower.waitFor('turn/end 2', (e) => is('turnEnd')(e) && e.seq > end.seq);
    expectContiguous(follower.events);
    expect(ofKind(follower.events, 'agentError')).toHaveLength(1);
  }, 120_000);

  it('survives a database restart while a turn runs: nothing lost, nothing twice, no takeover', async () => {
    const [a, b] = await startHosts(8000, 'a', 'b');
    const [onA, onB] = [client(a!.url), client(b!.url)];
    const { sessionId, follower, approvalId } = await turnWaitingForApproval(onA, onB);
    const onOwner = follow(onA, sessionId);
    await onOwner.waitFor('approval/requested on A', is('approvalRequested'));
    await postgres!.restart();
    // B reaches the database again and forwards the answer to A, whose listener reconnected.
    let answered: unknown;
    for (let i = 0; i < 50; i += 1) {
      answered = await onB
        .respond({
          sessionId,
          response: { case: 'approval', value: { approvalId, decision: ApprovalDecision.ALLOW } },
        })
        .then(
          () => 'ok',
          (error: Error) => error.message,
        );
      if (answered === 'ok' || !/unavailable|down or unreachable/.test(String(answered))) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(answered).toBe('ok');
    await follower.waitFor('approval/resolved', is('approvalResolved'));
    await follower.waitFor('tool/result', is('toolResult'), 45_000);
    await onB.cancel({ sessionId });
    const end = await follower.waitFor('turn/end', is('turnEnd'), 45_000);
    await onOwner.waitFor('turn/end on A', (e) => e.seq === end.seq);
    expectContiguous(follower.events);
    expect(onOwner.events.slice(0, follower.events.length)).toEqual(follower.events);
    expect(ofKind(follower.events, 'agentError')).toHaveLength(0);
    expect(ofKind(follower.events, 'turnStart')).toHaveLength(1);
    expect(await onB.page({ sessionId, maxMessages: 50 })).toEqual(
      await onA.page({ sessionId, maxMessages: 50 }),
    );
  }, 120_000);
  it('keeps a turn and its queue through a database outage while a command runs', async () => {
    const [a] = await startHosts(8000, 'a');
    const onA = client(a!.url);
    const { sessionId, follower, approvalId } = await turnWaitingForApproval(onA, onA);
    const queued = await onA.prompt({ sessionId, content: text('after'), mode: PromptMode.QUEUE });
    expect(queued).toMatchObject({ started: false, queuePosition: 1 });
    await onA.respond({
      sessionId,
      response: { case: 'approval', value: { approvalId, decision: ApprovalDecision.ALLOW } },
    });
    await follower.waitFor('approval/resolved', is('approvalResolved'));
    // The command runs for 3 s: its output and result must be written while the database is down.
    await postgres!.stopServer();
    const during = await onA.page({ sessionId, maxMessages: 10 }).then(
      () => 'ok',
      (error: Error) => error.message,
    );
    await new Promise((resolve) => setTimeout(resolve, 5000));
    await postgres!.start();
    await follower.waitFor('tool/result', is('toolResult'), 45_000);
    // The turn goes on (the demo model asks again); the queued input is still waiting.
    await follower.waitFor(
      'the next approval',
      (e) =>
        is('approvalRequested')(e) &&
        e.seq > 0 &&
        ofKind(follower.events, 'approvalRequested').length > 1,
      45_000,
    );
    const cancelled = await onA.cancel({ sessionId });
    expect(cancelled.cleared).toBe(1);
    expect(cancelled.clearedInputs.map((input) => input.queueId)).toEqual([queued.queueId]);
    await follower.waitFor('turn/end', is('turnEnd'), 45_000);
    expect(during).toMatch(/unavailable.*database/s);
    expectContiguous(follower.events);
    const results = ofKind(follower.events, 'toolResult').map((e) =>
      e.payload.case === 'toolResult' ? e.payload.value.callId : '',
    );
    expect(results.length).toBeGreaterThan(0);
    expect(new Set(results).size).toBe(results.length);
    expect(ofKind(follower.events, 'agentError')).toHaveLength(0);
    const unqueuedReasons = ofKind(follower.events, 'inputUnqueued').map((e) =>
      e.payload.case === 'inputUnqueued' ? e.payload.value.reason : undefined,
    );
    expect(unqueuedReasons).toEqual([UnqueueReason.CLEARED]);
    const again = await onA.prompt({ sessionId, content: text('usable'), mode: PromptMode.QUEUE });
    expect(again.started).toBe(true);
    await onA.cancel({ sessionId });
  }, 120_000);
  it('closes a turn whose appends outlast the outage bound once the database is back, keeping its queue', async () => {
    const [a] = await startHostsWith({ DSH_OUTAGE_MS: '1500' }, 8000, 'a');
    const onA = client(a!.url);
    const { sessionId, follower, approvalId } = await turnWaitingForApproval(onA, onA);
    const queued = await onA.prompt({ sessionId, content: text('after'), mode: PromptMode.QUEUE });
    await onA.respond({
      sessionId,
      response: { case: 'approval', value: { approvalId, decision: ApprovalDecision.ALLOW } },
    });
    await follower.waitFor('approval/resolved', is('approvalResolved'));
    await postgres!.stopServer();
    await new Promise((resolve) => setTimeout(resolve, 6000));
    await postgres!.start();
    const error = await follower.waitFor('agent/error', is('agentError'), 45_000);
    const first = await follower.waitFor('turn/end 1', is('turnEnd'), 45_000);
    const second = await follower.waitFor(
      'turn/start 2',
      (e) => e.payload.case === 'turnStart' && e.payload.value.turn === 2,
      45_000,
    );
    await onA.cancel({ sessionId });
    await follower.waitFor('turn/end 2', (e) => is('turnEnd')(e) && e.seq > second.seq, 45_000);
    expect(error.payload.value).toMatchObject({
      code: 'journal_write_failed',
      message: expect.stringMatching(/database .* is down or unreachable/),
    });
    expect(first.seq).toBeLessThan(second.seq);
    expectContiguous(follower.events);
    const unqueued = ofKind(follower.events, 'inputUnqueued').map((e) =>
      e.payload.case === 'inputUnqueued' ? [e.payload.value.queueId, e.payload.value.reason] : [],
    );
    expect(unqueued).toEqual([[queued.queueId, UnqueueReason.STARTED]]);
    const again = await onA.prompt({ sessionId, content: text('usable'), mode: PromptMode.QUEUE });
    expect(again.started).toBe(true);
    await onA.cancel({ sessionId });
  }, 120_000);
});
