import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { Code } from '@connectrpc/connect';
import { text, userMessage } from '@dsh/fixtures';
import { SessionEventSchema } from '@dsh/gen/events';
import { JournalErrorDetailSchema, PromptMode, type WatchSessionsResponse } from '@dsh/gen/service';
import { afterEach, describe, expect, it } from 'vitest';
import { encodeEventLine, encodeHeaderLine, formatVersion } from '@dsh/journal';
import type { AgentControl, AgentStatus } from '../src/session/index.js';
import {
  conversation,
  iterate,
  rpcError,
  startTestHost,
  take,
  type TestHost,
} from './test-host.js';

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** A journal file whose third line is not JSON: it fails alone. */
async function writeCorruptJournal(dir: string, sessionId: string): Promise<void> {
  const event = (seq: number): string =>
    encodeEventLine(
      create(SessionEventSchema, {
        seq,
        time: timestampFromMs(0),
        payload: userMessage(`m${seq}`),
      }),
    );
  const header = encodeHeaderLine({
    formatVersion,
    sessionId,
    cwd: '/',
    parentId: '',
    createdAt: new Date(0).toISOString(),
    model: '',
    title: 'broken',
  });
  await writeFile(
    join(dir, `${sessionId}.jsonl`),
    [header, event(0), '{not json', event(2), ''].join('\n'),
  );
}

describe('DescribeHost (RPC)', () => {
  it('reports version, format, cwd and the read-side capabilities without an agent', async () => {
    host = await startTestHost({ version: '9.9.9', defaultModel: 'demo' });
    const facts = await host.client.describeHost({});
    expect(facts).toMatchObject({
      version: '9.9.9',
      formatVersion,
      defaultCwd: host.dir,
      defaultModel: 'demo',
      capabilities: ['page', 'follow', 'watch', 'create', 'update', 'delete', 'search'],
    });
    expect(facts.homeDir).not.toBe('');
    expect(facts.models).toEqual(['demo']);
  });

  it('names the models the host runs, the default first, and CreateSession takes only those', async () => {
    host = await startTestHost({ defaultModel: 'big', models: ['small', 'big', 'demo'] });
    expect((await host.client.describeHost({})).models).toEqual(['big', 'small', 'demo']);
    const made = await host.client.createSession({ model: 'small' });
    expect(made.session?.model).toBe('small');
    const error = await rpcError(host.client.createSession({ model: 'huge' }));
    expect(error?.code).toBe(Code.InvalidArgument);
    expect(error?.rawMessage).toBe(
      'model "huge" is not one this host runs: use one of "big", "small", "demo" ' +
        '(DescribeHost models), or add it to the models of the host config',
    );
  });
});

describe('CreateSession and ListSessions (RPC)', () => {
  it('creates sessions and lists them newest first', async () => {
    host = await startTestHost({ defaultModel: 'demo' });
    const a = await host.client.createSession({ title: 'first' });
    expect(a.session).toMatchObject({
      cwd: host.dir,
      model: 'demo',
      title: 'first',
      eventCount: 0,
    });
    const b = await host.client.createSession({
      cwd: host.dir,
      parentId: a.session!.id,
      model: 'm2',
    });
    expect(b.session).toMatchObject({ parentId: a.session!.id, model: 'm2' });
    const journal = await host.store.open(a.session!.id);
    await journal.append(conversation(1));
    const list = await host.client.listSessions({});
    expect(list.sessions.map((s) => s.id)).toEqual([a.session!.id, b.session!.id]);
    expect(list.sessions[0]).toMatchObject({ eventCount: 7, running: false, readOnly: false });
  });

  it.each([
    ['a missing cwd', { cwd: '/no/such/dir/for/dsh' }, Code.InvalidArgument],
    ['a relative cwd', { cwd: 'relative/dir' }, Code.InvalidArgument],
    ['an unknown parent', { parentId: 'nobody' }, Code.NotFound],
    ['a traversal parent id', { parentId: '../etc' }, Code.InvalidArgument],
  ])('refuses %s', async (_name, request, code) => {
    host = await startTestHost();
    const error = await rpcError(host.client.createSession(request));
    expect(error?.code).toBe(code);
  });
});

describe('a corrupt journal', () => {
  it('fails alone with failed_precondition and a JournalErrorDetail while others serve', async () => {
    host = await startTestHost();
    const good = await host.store.create({ cwd: host.dir });
    await good.append(conversation(2));
    await writeCorruptJournal(host.store.dataDir, 'broken');
    const error = await rpcError(host.client.page({ sessionId: 'broken' }));
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.findDetails(JournalErrorDetailSchema)).toEqual([
      expect.objectContaining({ sessionId: 'broken', line: 3 }),
    ]);
    const followError = await rpcError(
      take(iterate(host.client.follow({ sessionId: 'broken' })), 1),
    );
    expect(followError?.code).toBe(Code.FailedPrecondition);
    const list = await host.client.listSessions({});
    expect(list.sessions.find((s) => s.id === 'broken')?.error).toContain('line 3');
    const page = await host.client.page({ sessionId: good.header.sessionId });
    expect(page.events.length).toBeGreaterThan(0);
    expect(host.logs.some((line) => line.includes('Page FailedPrecondition'))).toBe(true);
  });
});

describe('Prompt, Cancel and Respond without an agent runtime (RPC)', () => {
  it.each([
    [
      'Prompt',
      (h: TestHost, id: string) =>
        h.client.prompt({ sessionId: id, content: [text('hi')], mode: PromptMode.QUEUE }),
    ],
    ['Cancel', (h: TestHost, id: string) => h.client.cancel({ sessionId: id })],
    [
      'Respond',
      (h: TestHost, id: string) =>
        h.client.respond({
          sessionId: id,
          response: { case: 'approval', value: { approvalId: 'a1' } },
        }),
    ],
  ])('%s fails with failed_precondition naming the session', async (_name, call) => {
    host = await startTestHost();
    const session = await host.store.create({ cwd: host.dir });
    const error = await rpcError(call(host, session.header.sessionId));
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.rawMessage).toContain(`no agent runtime for session ${session.header.sessionId}`);
  });

  it('checks the session before the agent: unknown -> not_found', async () => {
    host = await startTestHost();
    const error = await rpcError(host.client.cancel({ sessionId: 'missing' }));
    expect(error?.code).toBe(Code.NotFound);
  });
});

describe('refusals of what a session or host cannot do (RPC)', () => {
  it.each([
    {
      name: 'Prompt to an imported session',
      call: async (h: TestHost) => {
        const imported = await h.store.create({ cwd: h.dir, origin: 'claude-code' });
        const id = imported.header.sessionId;
        return h.client.prompt({ sessionId: id, content: [text('hi')], mode: PromptMode.QUEUE });
      },
      message: 'is read-only: continue it as a new session (CreateSession with continue_from)',
    },
    {
      name: 'CreateSession continuing on a host without continuation',
      call: async (h: TestHost) => {
        const source = await h.store.create({ cwd: h.dir });
        return h.client.createSession({ continueFrom: source.header.sessionId });
      },
      message: 'this host cannot continue sessions: create the session without continue_from',
    },
  ])('$name fails with failed_precondition naming the fix', async ({ call, message }) => {
    host = await startTestHost();
    const error = await rpcError(call(host));
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.rawMessage).toContain(message);
  });
});

describe('WatchSessions (RPC)', () => {
  it('opens with a snapshot, then reports added and updated sessions and heartbeats', async () => {
    host = await startTestHost({ follow: { heartbeatMs: 100 } });
    const first = await host.store.create({ cwd: host.dir, title: 'one' });
    const ac = new AbortController();
    const it = iterate(host.client.watchSessions({}, { signal: ac.signal }));
    const [snapshot] = await take(it, 1);
    expect(snapshot!.frame.case).toBe('snapshot');
    expect(
      snapshot!.frame.case === 'snapshot' && snapshot!.frame.value.sessions.map((s) => s.id),
    ).toEqual([first.header.sessionId]);
    const second = await host.client.createSession({ title: 'two' });
    const added = await nextOf(it, 'added');
    expect(added.frame.value).toMatchObject({ id: second.session!.id, title: 'two' });
    await first.append([userMessage('hello')]);
    const updated = await nextOf(it, 'updated');
    expect(updated.frame.value).toMatchObject({ id: first.header.sessionId, eventCount: 1 });
    await nextOf(it, 'heartbeat');
    ac.abort();
  });
});

async function nextOf(
  it: AsyncIterator<WatchSessionsResponse>,
  kind: NonNullable<WatchSessionsResponse['frame']['case']>,
): Promise<WatchSessionsResponse & { frame: { value: unknown } }> {
  for (;;) {
    const next = await it.next();
    if (next.done === true) throw new Error(`stream ended before a ${kind} frame`);
    if (next.value.frame.case === kind)
      return next.value as WatchSessionsResponse & { frame: { value: unknown } };
  }
}

/** A minimal agent runtime: records input and reports status changes. */
function createRecordingAgent(): AgentControl & {
  setRunning(id: string, running: boolean): void;
  prompts: string[];
} {
  const listeners = new Set<(status: AgentStatus) => void>();
  const running = new Set<string>();
  const prompts: string[] = [];
  return {
    enabled: true,
    prompts,
    prompt(sessionId, input) {
      prompts.push(`${sessionId}:${input.mode}:${input.content.length}`);
      return Promise.resolve({
        started: !running.has(sessionId),
        queuePosition: running.has(sessionId) ? 1 : 0,
        queueId: running.has(sessionId) ? 'q-1' : '',
      });
    },
    cancel: () => Promise.resolve({ cancelled: false, cleared: 0, clearedInputs: [] }),
    respond: () => Promise.resolve(),
    compact: () => Promise.resolve({ started: true }),
    editQueue: () => Promise.resolve({ previous: [] }),
    isRunning: (id) => running.has(id),
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    setRunning(id, value) {
      if (value) running.add(id);
      else running.delete(id);
      for (const listener of listeners) listener({ sessionId: id, running: value });
    },
  };
}

describe('with an agent runtime (RPC)', () => {
  it('lists prompt/cancel/respond, forwards input and streams status frames', async () => {
    const agent = createRecordingAgent();
    host = await startTestHost({ agent, follow: { heartbeatMs: 60_000 } });
    const facts = await host.client.describeHost({});
    expect(facts.capabilities).toEqual([
      'page',
      'follow',
      'watch',
      'create',
      'update',
      'delete',
      'prompt',
      'cancel',
      'respond',
      'compact',
      'edit_queue',
      'search',
    ]);
    const session = await host.store.create({ cwd: host.dir });
    const id = session.header.sessionId;
    expect(
      await host.client.prompt({ sessionId: id, content: [text('hi')], mode: PromptMode.STEER }),
    ).toMatchObject({
      started: true,
    });
    expect(agent.prompts).toEqual([`${id}:${PromptMode.STEER}:1`]);
    const empty = await rpcError(host.client.prompt({ sessionId: id, content: [] }));
    expect(empty?.code).toBe(Code.InvalidArgument);
    const ac = new AbortController();
    const it = iterate(host.client.watchSessions({}, { signal: ac.signal }));
    await take(it, 1);
    agent.setRunning(id, true);
    const status = await nextOf(it, 'status');
    expect(status.frame.value).toMatchObject({ id, running: true });
    expect((await host.client.listSessions({})).sessions[0]).toMatchObject({ id, running: true });
    ac.abort();
  });
});
