import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { interruptedMessage } from '@dsh/card-models/contract';
import { TurnEndReason } from '@dsh/gen/events';
import { assistantMessage, toolCall, toolCallBlock, turnStart, userMessage } from '@dsh/fixtures';
import { createShellTool, isProcessAlive, ShellSessions } from '@dsh/tools';
import { deltaChunk, textReply, toolReply } from '@dsh/providers/test-kit';
import { payloadOf, startHarness, type Harness } from './harness.js';
import { echoTool } from './test-tools.js';

let h: Harness;
let shells: ShellSessions | undefined;
afterEach(async () => {
  await h.close();
  await shells?.dispose();
});

async function until(check: () => Promise<boolean> | boolean): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('AgentControl.cancel()', () => {
  it('aborts a model stream: chunks stay, no message, turn/end(cancelled), session usable', async () => {
    h = await startHarness({ tools: [echoTool] });
    h.server.reply({
      kind: 'stream',
      chunks: [deltaChunk({ content: 'partial answ' })],
      hang: true,
    });
    await h.prompt('talk');
    await h.waitFor(
      (e) =>
        e.payload.case === 'assistantChunk' && e.payload.value.chunk?.chunk.case === 'textDelta',
    );
    expect(await h.prompt('later')).toMatchObject({ started: false, queuePosition: 1 });
    expect(await h.runtime.cancel(h.sessionId)).toMatchObject({ cancelled: true, cleared: 1 });
    expect(h.runtime.isRunning(h.sessionId)).toBe(false);
    const types = await h.types();
    expect(types).toEqual([
      'user/message',
      'turn/start',
      'context/message',
      'assistant/chunk',
      'input/queued',
      'input/unqueued',
      'turn/end',
    ]);
    expect(payloadOf((await h.events()).at(-1), 'turnEnd').reason).toBe(TurnEndReason.CANCELLED);
    await until(() => h.server.disconnects === 1);
    h.server.reply(textReply(['Fine.']));
    expect(await h.prompt('again')).toMatchObject({ started: true, queuePosition: 0 });
    await h.runtime.idle(h.sessionId);
    expect(payloadOf((await h.events()).at(-1), 'turnEnd')).toMatchObject({
      turn: 2,
      reason: TurnEndReason.COMPLETED,
    });
  });

  it.each([
    { name: 'setsid in the background', command: 'setsid sleep 1000 & echo $! > child.pid' },
    {
      name: 'setsid from a subshell that exits (the child loses its parent)',
      command: '(setsid sleep 1000 & echo $! > child.pid)',
    },
    {
      name: 'a new session with its own child',
      command: "setsid bash -c 'sleep 1000 & echo $! > child.pid; wait' &",
    },
    {
      name: 'a child without the tag that lost its parent after a while',
      command: '(env -u DSH_PROCESS_TAG setsid sleep 1000 & echo $! > child.pid; sleep 1.5)',
    },
  ])('kills every descendant on cancel: $name', async ({ command }) => {
    shells = new ShellSessions();
    h = await startHarness({
      tools: [createShellTool('bash', shells)],
      approvals: { bash: 'allow' },
    });
    const args = JSON.stringify({ command: `${command}\nsleep 100` });
    h.server.reply(toolReply([{ id: 'call_setsid', name: 'bash', args }]));
    await h.prompt('start it');
    let pid = 0;
    await until(async () => {
      pid = Number((await readFile(join(h.cwd, 'child.pid'), 'utf8').catch(() => '')).trim());
      return pid > 0;
    });
    // The last case's child must be seen by the tree before its parent exits.
    if (command.includes('sleep 1.5')) await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(isProcessAlive(pid)).toBe(true);
    await h.runtime.cancel(h.sessionId);
    expect(isProcessAlive(pid)).toBe(false);
  });

  it('kills a long shell command and records an interrupted result', async () => {
    shells = new ShellSessions();
    h = await startHarness({
      tools: [createShellTool('bash', shells), echoTool],
      approvals: { bash: 'allow' },
    });
    const command = JSON.stringify({ command: 'echo $$ > sleep.pid && exec sleep 30' });
    h.server.reply(
      toolReply([
        { id: 'call_sleep', name: 'bash', args: command },
        { id: 'call_after', name: 'echo', args: '{"text":"never"}' },
      ]),
    );
    await h.prompt('sleep');
    await h.waitFor((e) => e.payload.case === 'toolCall');
    const pidFile = join(h.cwd, 'sleep.pid');
    let pid = 0;
    await until(async () => {
      pid = Number((await readFile(pidFile, 'utf8').catch(() => '')).trim());
      return pid > 0;
    });
    expect(isAlive(pid)).toBe(true);
    expect(await h.runtime.cancel(h.sessionId)).toMatchObject({ cancelled: true, cleared: 0 });
    expect(isAlive(pid)).toBe(false);
    const events = await h.events();
    const results = events
      .filter((e) => e.payload.case === 'toolResult')
      .map((e) => payloadOf(e, 'toolResult'));
    expect(results.map((r) => [r.callId, r.isError, r.error?.code, r.error?.message])).toEqual([
      ['call_sleep', true, 'interrupted', interruptedMessage],
      ['call_after', true, 'interrupted', interruptedMessage],
    ]);
    const calls = events
      .filter((e) => e.payload.case === 'toolCall')
      .map((e) => payloadOf(e, 'toolCall').callId);
    expect(calls).toEqual(['call_sleep', 'call_after']);
    expect(payloadOf(events.at(-1), 'turnEnd').reason).toBe(TurnEndReason.CANCELLED);
  });

  it('withdraws a pending approval as cancelled', async () => {
    h = await startHarness({ tools: [echoTool], approvals: { echo: 'ask' } });
    h.server.reply(toolReply([{ id: 'call_1', name: 'echo', args: '{"text":"x"}' }]));
    await h.prompt('go');
    await h.waitFor((e) => e.payload.case === 'approvalRequested');
    await h.runtime.cancel(h.sessionId);
    const types = await h.types();
    expect(types.slice(-4)).toEqual([
      'approval/requested',
      'approval/resolved',
      'tool/result',
      'turn/end',
    ]);
    const resolved = payloadOf(
      (await h.events()).find((e) => e.payload.case === 'approvalResolved'),
      'approvalResolved',
    );
    expect(resolved.decision).toBe(4);
  });

  it('reports nothing to cancel when idle', async () => {
    h = await startHarness({ tools: [echoTool] });
    expect(await h.runtime.cancel(h.sessionId)).toMatchObject({ cancelled: false, cleared: 0 });
  });

  it('closes a turn the host left open before starting the next one', async () => {
    h = await startHarness({ tools: [echoTool] });
    await h.journal.append([
      userMessage('before the crash'),
      turnStart(1),
      assistantMessage({ turn: 1 }, [toolCallBlock('call_old', 'echo', { text: 'x' })]),
      toolCall('call_old', 'echo', { text: 'x' }),
    ]);
    h.server.reply(textReply(['Recovered.']));
    await h.prompt('after');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const result = payloadOf(events[4], 'toolResult');
    expect(result).toMatchObject({
      callId: 'call_old',
      turn: 1,
      isError: true,
      error: { code: 'interrupted' },
    });
    expect(payloadOf(events[5], 'agentError')).toMatchObject({
      code: 'host_stopped',
      message: expect.stringMatching(/^The host stopped while this turn was running/),
    });
    expect(payloadOf(events[6], 'turnEnd')).toMatchObject({
      turn: 1,
      reason: TurnEndReason.CANCELLED,
    });
    expect(payloadOf(events[8], 'turnStart').turn).toBe(2);
    expect(h.server.requests[0]?.['messages']).toMatchObject([
      { role: 'system' },
      { role: 'user', content: 'before the crash' },
      { role: 'assistant', tool_calls: [{ id: 'call_old' }] },
      { role: 'tool', tool_call_id: 'call_old', content: expect.stringContaining('Interrupted') },
      { role: 'user', content: 'after' },
    ]);
  });
});
