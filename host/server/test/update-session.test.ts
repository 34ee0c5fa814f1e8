import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Code } from '@connectrpc/connect';
import { approvalRequested, assistantMessage, usage, userMessage } from '@dsh/fixtures';
import { afterEach, describe, expect, it } from 'vitest';
import { createNoAgentControl } from '../src/session/index.js';
import { iterate, rpcError, startTestHost, take, type TestHost } from './test-host.js';

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

async function sessionWithPrompt(h: TestHost): Promise<string> {
  const journal = await h.store.create({ cwd: h.dir, model: 'header-model' });
  await journal.append([
    userMessage('  Make the\nbuild green  '),
    assistantMessage({ turn: 1 }, ['on it'], usage(100, 20)),
    approvalRequested('a1', 'c1', 'bash', 'runs a command'),
  ]);
  return journal.header.sessionId;
}

describe('ListSessions (RPC)', () => {
  it('carries the title, pending count, usage, model and last event time', async () => {
    host = await startTestHost();
    const id = await sessionWithPrompt(host);
    const [summary] = (await host.client.listSessions({})).sessions;
    expect(summary).toMatchObject({
      id,
      title: 'Make the build green',
      pending: 1,
      model: 'demo',
      eventCount: 3,
      archived: false,
      tokenUsage: { inputTokens: 100n, outputTokens: 20n, messages: 1 },
    });
    expect(summary?.updatedAt).toBeDefined();
  });
});

describe('UpdateSession (RPC)', () => {
  it('renames by appending session/renamed, keeping every name in the journal', async () => {
    host = await startTestHost();
    const id = await sessionWithPrompt(host);
    const renamed = await host.client.updateSession({ sessionId: id, title: '  Release prep ' });
    expect(renamed.session).toMatchObject({ title: 'Release prep', eventCount: 4 });
    const again = await host.client.updateSession({ sessionId: id, title: 'Release prep' });
    expect(again.session?.eventCount).toBe(4);
    const back = await host.client.updateSession({ sessionId: id, title: '' });
    expect(back.session).toMatchObject({ title: 'Make the build green', eventCount: 5 });
    const page = await host.client.page({ sessionId: id });
    expect(page.events.map((e) => e.event?.payload.case).slice(-2)).toEqual([
      'sessionRenamed',
      'sessionRenamed',
    ]);
  });

  it('archives: hidden from the default list and watch, shown with include_archived', async () => {
    host = await startTestHost();
    const id = await sessionWithPrompt(host);
    const watch = iterate(host.client.watchSessions({}));
    const [snapshot] = await take(watch, 1);
    expect(snapshot?.frame.case).toBe('snapshot');
    await host.client.updateSession({ sessionId: id, archived: true });
    expect((await host.client.listSessions({})).sessions).toEqual([]);
    const all = (await host.client.listSessions({ includeArchived: true })).sessions;
    expect(all.map((s) => [s.id, s.archived])).toEqual([[id, true]]);
    expect(await nextFrame(watch, 'removed')).toMatchObject({ id });
    await host.client.updateSession({ sessionId: id, archived: false });
    expect(await nextFrame(watch, 'added')).toMatchObject({ id, archived: false });
    await watch.return?.();
  });

  const refusals: [string, { title?: string }, Code][] = [
    ['an over-long title', { title: 'x'.repeat(201) }, Code.InvalidArgument],
  ];
  it.each(refusals)('refuses %s', async (_name, change, code) => {
    host = await startTestHost();
    const id = await sessionWithPrompt(host);
    const error = await rpcError(host.client.updateSession({ sessionId: id, ...change }));
    expect(error?.code).toBe(code);
    expect(error?.rawMessage).toMatch(/at most 200/);
  });

  it('refuses an imported session, naming continue_from', async () => {
    host = await startTestHost();
    const journal = await host.store.create({ cwd: host.dir, origin: 'claude-code' });
    const error = await rpcError(
      host.client.updateSession({ sessionId: journal.header.sessionId, title: 'x' }),
    );
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.rawMessage).toMatch(/continue_from/);
  });
});

describe('DeleteSession (RPC)', () => {
  it('moves the journal to the trash folder; the session is gone from the list', async () => {
    host = await startTestHost();
    const id = await sessionWithPrompt(host);
    const { trashPath } = await host.client.deleteSession({ sessionId: id });
    expect(trashPath.startsWith(join(host.store.dataDir, 'trash', `${id}-`))).toBe(true);
    expect(await readdir(trashPath)).toEqual([`${id}.jsonl`]);
    expect((await host.client.listSessions({ includeArchived: true })).sessions).toEqual([]);
    expect((await rpcError(host.client.page({ sessionId: id })))?.code).toBe(Code.NotFound);
  });

  it('refuses a running session with failed_precondition naming Cancel', async () => {
    const agent = { ...createNoAgentControl(), isRunning: () => true };
    host = await startTestHost({ agent });
    const id = await sessionWithPrompt(host);
    const error = await rpcError(host.client.deleteSession({ sessionId: id }));
    expect(error?.code).toBe(Code.FailedPrecondition);
    expect(error?.rawMessage).toMatch(/running a turn: cancel it \(Cancel\)/);
    expect((await host.client.listSessions({})).sessions.map((s) => s.id)).toEqual([id]);
  });
});

async function nextFrame(
  watch: AsyncIterator<{ frame: { case: string | undefined; value?: unknown } }>,
  kind: string,
): Promise<unknown> {
  for (;;) {
    const next = await watch.next();
    if (next.done === true) throw new Error(`the watch ended before a ${kind} frame`);
    if (next.value.frame.case === kind) return next.value.frame.value;
  }
}
