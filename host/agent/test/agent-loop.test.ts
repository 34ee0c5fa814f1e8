import { afterEach, describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { AgentError } from '../src/index.js';
import { ContentBlockSchema } from '@dsh/gen/content';
import { PromptMode } from '@dsh/gen/service';
import { TurnEndReason } from '@dsh/gen/events';
import { startHarness, payloadOf, typeName, type Harness } from './harness.js';
import { textReply, toolReply } from '@dsh/providers/test-kit';
import { echoTool } from './test-tools.js';

let h: Harness;
afterEach(async () => h.close());

describe('createAgentRuntime() loop', () => {
  it('runs model steps and tool calls until the model stops', async () => {
    h = await startHarness({ tools: [echoTool] });
    h.server.reply(
      toolReply([{ id: 'call_1', name: 'echo', args: '{"text":"hello"}' }], {
        text: 'Let me echo.',
      }),
      textReply(['Done', ' now.']),
    );
    expect(await h.prompt('say hello')).toMatchObject({ started: true, queuePosition: 0 });
    await h.runtime.idle(h.sessionId);
    expect(await h.types()).toEqual([
      'user/message',
      'turn/start',
      'context/message',
      'assistant/chunk',
      'assistant/message',
      'tool/call',
      'tool/result',
      'assistant/chunk',
      'assistant/message',
      'turn/end',
    ]);
    const events = await h.events();
    const messages = events.filter((e) => e.payload.case === 'assistantMessage');
    const first = payloadOf(messages[0], 'assistantMessage');
    expect(first.content.map((b) => b.block)).toMatchObject([
      { case: 'text', value: { text: 'Let me echo.' } },
      { case: 'toolCall', value: { id: 'call_1', name: 'echo', arguments: '{"text":"hello"}' } },
    ]);
    expect(first).toMatchObject({
      turn: 1,
      step: 0,
      finishReason: 'tool_calls',
      model: 'fake-model',
    });
    expect(first.usage).toMatchObject({ inputTokens: 20, outputTokens: 7 });
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result).toMatchObject({
      callId: 'call_1',
      turn: 1,
      step: 0,
      isError: false,
      metaJson: '{"echoed":"hello"}',
    });
    expect(result.content[0]?.block).toMatchObject({
      case: 'text',
      value: { text: 'echo: hello' },
    });
    expect(payloadOf(messages[1], 'assistantMessage')).toMatchObject({
      step: 1,
      finishReason: 'stop',
    });
    expect(payloadOf(events.at(-1), 'turnEnd')).toMatchObject({
      turn: 1,
      reason: TurnEndReason.COMPLETED,
    });
    // Every chunk of a step precedes its message, and the chunks rebuild the text.
    const step1Text = events
      .filter((e) => e.payload.case === 'assistantChunk' && e.payload.value.step === 1)
      .map((e) => payloadOf(e, 'assistantChunk').chunk?.chunk)
      .flatMap((c) => (c?.case === 'textDelta' ? [c.value.text] : []))
      .join('');
    expect(step1Text).toBe('Done now.');
    // The second request carries the history rebuilt from the journal.
    expect(h.server.requests[1]?.['messages']).toMatchObject([
      { role: 'system' },
      { role: 'user', content: 'say hello' },
      { role: 'user', content: expect.stringContaining('Working directory:') },
      {
        role: 'assistant',
        content: 'Let me echo.',
        tool_calls: [
          {
            id: 'call_1',
            type: 'function',
            function: { name: 'echo', arguments: '{"text":"hello"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'echo: hello' },
    ]);
    expect(h.server.requests[0]).toMatchObject({
      model: 'fake-model',
      stream: true,
      stream_options: { include_usage: true },
      tools: [{ type: 'function', function: { name: 'echo' } }],
    });
  });

  it('records malformed tool arguments raw and continues with an invalid_arguments result', async () => {
    h = await startHarness({ tools: [echoTool] });
    const raw = '{"text": "unterminated';
    h.server.reply(toolReply([{ id: 'call_bad', name: 'echo', args: raw }]), textReply(['Sorry.']));
    await h.prompt('go');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    expect(
      payloadOf(
        events.find((e) => e.payload.case === 'toolCall'),
        'toolCall',
      ).arguments,
    ).toBe(raw);
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result).toMatchObject({
      isError: true,
      error: { code: 'invalid_arguments' },
      metaJson: '',
    });
    expect(payloadOf(events.at(-1), 'turnEnd').reason).toBe(TurnEndReason.COMPLETED);
  });

  it.each([
    { name: '500 on every attempt', status: 500, code: 'provider_unavailable', attempts: 4 },
    { name: '429 on every attempt', status: 429, code: 'rate_limited', attempts: 4 },
    { name: '401', status: 401, code: 'unauthenticated', attempts: 1 },
    { name: '400', status: 400, code: 'provider_rejected', attempts: 1 },
  ])('records agent/error and turn/end(error) on $name, and stays usable', async (c) => {
    h = await startHarness({ tools: [echoTool] });
    for (let i = 0; i < c.attempts; i++)
      h.server.reply({ kind: 'status', status: c.status, headers: { 'retry-after': '0' } });
    await h.prompt('first');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    expect(h.server.requests).toHaveLength(c.attempts);
    const error = payloadOf(
      events.find((e) => e.payload.case === 'agentError'),
      'agentError',
    );
    expect(error.code).toBe(c.code);
    expect(error.message).toMatch(new RegExp(`HTTP ${c.status}`));
    expect(payloadOf(events.at(-1), 'turnEnd')).toMatchObject({
      turn: 1,
      reason: TurnEndReason.ERROR,
    });
    h.server.reply(textReply(['Back.']));
    expect(await h.prompt('second')).toMatchObject({ started: true, queuePosition: 0 });
    await h.runtime.idle(h.sessionId);
    expect(payloadOf((await h.events()).at(-1), 'turnEnd')).toMatchObject({
      turn: 2,
      reason: TurnEndReason.COMPLETED,
    });
  });

  it('retries a 429 honouring Retry-After, then streams', async () => {
    h = await startHarness({ tools: [echoTool] });
    h.server.reply(
      { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
      textReply(['Hi.']),
    );
    await h.prompt('hello');
    await h.runtime.idle(h.sessionId);
    expect(h.server.requests).toHaveLength(2);
    expect((await h.types()).filter((t) => t === 'agent/error')).toEqual([]);
    expect(payloadOf((await h.events()).at(-1), 'turnEnd').reason).toBe(TurnEndReason.COMPLETED);
  });

  it('queues input while running (FIFO) and injects steering between steps', async () => {
    h = await startHarness({ tools: [echoTool], approvals: { echo: 'ask' } });
    const statuses: boolean[] = [];
    h.runtime.onStatus((s) => statuses.push(s.running));
    h.server.reply(
      toolReply([{ id: 'call_1', name: 'echo', args: '{"text":"x"}' }]),
      textReply(['Steered.']),
      textReply(['Second turn.']),
      textReply(['Third turn.']),
    );
    await h.prompt('first');
    const asked = payloadOf(
      await h.waitFor((e) => e.payload.case === 'approvalRequested'),
      'approvalRequested',
    );
    expect(h.runtime.isRunning(h.sessionId)).toBe(true);
    expect(await h.prompt('second')).toMatchObject({ started: false, queuePosition: 1 });
    expect(await h.prompt('third')).toMatchObject({ started: false, queuePosition: 2 });
    expect(await h.prompt('nudge', 'steer')).toMatchObject({ started: false, queuePosition: 0 });
    await h.runtime.respond(h.sessionId, {
      case: 'approval',
      value: {
        $typeName: 'dsh.session.v1.ApprovalResponse',
        approvalId: asked.approvalId,
        decision: 1,
      },
    });
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const steering = payloadOf(
      events.find((e) => e.payload.case === 'steeringMessage'),
      'steeringMessage',
    );
    expect(steering).toMatchObject({ turn: 1, source: 'user' });
    const order = events.map(typeName).filter((t) => t !== 'assistant/chunk');
    expect(order.slice(order.indexOf('tool/result'))).toEqual([
      'tool/result',
      'input/unqueued',
      'steering/message',
      'assistant/message',
      'turn/end',
      'input/unqueued',
      'user/message',
      'turn/start',
      'assistant/message',
      'turn/end',
      'input/unqueued',
      'user/message',
      'turn/start',
      'assistant/message',
      'turn/end',
    ]);
    const users = events
      .filter((e) => e.payload.case === 'userMessage')
      .map((e) => payloadOf(e, 'userMessage'));
    const textOf = (u: (typeof users)[number]): string | undefined =>
      u.content[0]?.block.case === 'text' ? u.content[0].block.value.text : undefined;
    expect(users.map((u) => [u.source, textOf(u)])).toEqual([
      ['user', 'first'],
      ['queued', 'second'],
      ['queued', 'third'],
    ]);
    expect(h.server.requests[1]?.['messages']).toMatchObject([
      {},
      {},
      {},
      {},
      { role: 'tool' },
      { role: 'user', content: 'nudge' },
    ]);
    expect(statuses).toEqual([true, false]);
    expect(h.runtime.isRunning(h.sessionId)).toBe(false);
  });

  it('treats steer like queue when idle', async () => {
    h = await startHarness({ tools: [echoTool] });
    h.server.reply(textReply(['Ok.']));
    expect(await h.prompt('hi', 'steer')).toMatchObject({ started: true, queuePosition: 0 });
    await h.runtime.idle(h.sessionId);
    expect((await h.types()).slice(0, 2)).toEqual(['user/message', 'turn/start']);
  });

  it('refuses a prompt for a session whose folder is not on this host, recording nothing', async () => {
    h = await startHarness({ tools: [echoTool] });
    const elsewhere = await h.store.create({ cwd: '/no/such/folder' });
    const failed = await h.runtime
      .prompt(elsewhere.header.sessionId, {
        content: [create(ContentBlockSchema, { block: { case: 'text', value: { text: 'hi' } } })],
        mode: PromptMode.QUEUE,
      })
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AgentError);
    expect((failed as AgentError).kind).toBe('failed_precondition');
    expect((failed as AgentError).message).toContain('/no/such/folder');
    expect(elsewhere.length).toBe(0);
  });
});
