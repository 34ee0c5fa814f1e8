import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { AgentError } from '../src/index.js';
import { afterEach, describe, expect, it } from 'vitest';
import { ApprovalDecision, TurnEndReason } from '@dsh/gen/events';
import type { RespondRequest } from '@dsh/gen/service';
import { createShellTool, ShellSessions, askUserTool, createRunCodeTool } from '@dsh/tools';
import { textReply, toolReply } from '@dsh/providers/test-kit';
import { payloadOf, startHarness, type Harness } from './harness.js';
import { echoTool } from './test-tools.js';

let h: Harness;
let shells: ShellSessions | undefined;
afterEach(async () => {
  await h.close();
  await shells?.dispose();
});

function approve(approvalId: string, decision: ApprovalDecision): RespondRequest['response'] {
  return {
    case: 'approval',
    value: { $typeName: 'dsh.session.v1.ApprovalResponse', approvalId, decision },
  };
}

describe('approvals', () => {
  it.each([
    { decision: ApprovalDecision.ALLOW, ran: true, code: undefined },
    { decision: ApprovalDecision.ALLOW_SESSION, ran: true, code: undefined },
    { decision: ApprovalDecision.DENY, ran: false, code: 'denied' },
  ])('asks before bash by default and honours decision $decision', async (c) => {
    shells = new ShellSessions();
    h = await startHarness({ tools: [createShellTool('bash', shells)] });
    const args = JSON.stringify({ command: 'echo ran > ran.txt && echo ok' });
    h.server.reply(toolReply([{ id: 'call_sh', name: 'bash', args }]), textReply(['Done.']));
    await h.prompt('run it');
    const asked = payloadOf(
      await h.waitFor((e) => e.payload.case === 'approvalRequested'),
      'approvalRequested',
    );
    expect(asked).toMatchObject({
      callId: 'call_sh',
      toolName: 'bash',
      reason: 'runs a shell command',
    });
    await h.runtime.respond(h.sessionId, approve(asked.approvalId, c.decision));
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    expect(
      payloadOf(
        events.find((e) => e.payload.case === 'approvalResolved'),
        'approvalResolved',
      ),
    ).toMatchObject({
      approvalId: asked.approvalId,
      decision: c.decision,
    });
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result.error?.code).toBe(c.code);
    expect(existsSync(join(h.cwd, 'ran.txt'))).toBe(c.ran);
    expect(payloadOf(events.at(-1), 'turnEnd').reason).toBe(TurnEndReason.COMPLETED);
  });

  it('denies by policy without asking', async () => {
    h = await startHarness({ tools: [echoTool], approvals: { echo: 'deny' } });
    h.server.reply(
      toolReply([{ id: 'call_1', name: 'echo', args: '{"text":"x"}' }]),
      textReply(['Ok.']),
    );
    await h.prompt('go');
    await h.runtime.idle(h.sessionId);
    const types = await h.types();
    expect(types).not.toContain('approval/requested');
    const result = payloadOf(
      (await h.events()).find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result).toMatchObject({ isError: true, error: { code: 'denied' } });
  });

  it.each([
    {
      name: 'unknown approval',
      response: approve('nope', ApprovalDecision.ALLOW),
      kind: 'failed_precondition',
    },
    {
      name: 'cancelled decision',
      response: approve('nope', ApprovalDecision.CANCELLED),
      kind: 'invalid_argument',
    },
    {
      name: 'empty response',
      response: { case: undefined, value: undefined } as const,
      kind: 'invalid_argument',
    },
  ])('refuses a respond with $name', async (c) => {
    h = await startHarness({ tools: [echoTool] });
    const error = await h.runtime.respond(h.sessionId, c.response).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AgentError);
    expect((error as AgentError).kind).toBe(c.kind);
  });
});

describe('questions', () => {
  it.each([
    { cancelled: false, isError: false, text: 'yes' },
    { cancelled: true, isError: true, text: '' },
  ])('records question/* around ask_user (cancelled: $cancelled)', async (c) => {
    h = await startHarness({ tools: [askUserTool] });
    const args = JSON.stringify({
      questions: [{ question: 'Proceed?', options: [{ label: 'yes' }, { label: 'no' }] }],
    });
    h.server.reply(toolReply([{ id: 'call_q', name: 'ask_user', args }]), textReply(['Ok.']));
    await h.prompt('ask me');
    const asked = payloadOf(
      await h.waitFor((e) => e.payload.case === 'questionRequested'),
      'questionRequested',
    );
    expect(asked.callId).toBe('call_q');
    expect(asked.questions.map((q) => [q.question, q.options.map((o) => o.label)])).toEqual([
      ['Proceed?', ['yes', 'no']],
    ]);
    await h.runtime.respond(h.sessionId, {
      case: 'question',
      value: {
        $typeName: 'dsh.session.v1.QuestionResponse',
        questionId: asked.questionId,
        answers: c.cancelled ? [] : [{ $typeName: 'dsh.session.v1.Answer', values: ['yes'] }],
        cancelled: c.cancelled,
      },
    });
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const resolved = payloadOf(
      events.find((e) => e.payload.case === 'questionResolved'),
      'questionResolved',
    );
    expect(resolved).toMatchObject({ questionId: asked.questionId, cancelled: c.cancelled });
    expect(resolved.answers.map((a) => a.values)).toEqual(c.cancelled ? [] : [['yes']]);
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result.isError).toBe(c.isError);
    if (c.cancelled) expect(result.error?.code).toBe('cancelled');
    else expect(JSON.stringify(result.content)).toContain(c.text);
  });
});

describe('code dispatch', () => {
  it('records run_code sub-calls with parentCallId, settles each, and keeps meta off them', async () => {
    h = await startHarness({ tools: [createRunCodeTool(), echoTool] });
    const code = [
      "const a = await tools.echo({ text: 'a' });",
      'let b = "";',
      'try { await tools.echo({ nope: 1 }); } catch (e) { b = e.code; }',
      "return a + ' / ' + b;",
    ].join('\n');
    h.server.reply(
      toolReply([
        {
          id: 'call_code',
          name: 'run_code',
          args: JSON.stringify({ code, description: 'two echoes' }),
        },
      ]),
      textReply(['Ok.']),
    );
    await h.prompt('code');
    await h.runtime.idle(h.sessionId);
    const events = await h.events();
    const starts = events
      .filter((e) => e.payload.case === 'codeDispatchStart')
      .map((e) => payloadOf(e, 'codeDispatchStart'));
    expect(starts.map((s) => [s.parentCallId, s.callId, s.name, s.arguments])).toEqual([
      ['call_code', 'call_code.1', 'echo', '{"text":"a"}'],
      ['call_code', 'call_code.2', 'echo', '{"nope":1}'],
    ]);
    const settled = events
      .filter((e) => e.payload.case === 'codeDispatch')
      .map((e) => payloadOf(e, 'codeDispatch'));
    expect(settled.map((s) => [s.parentCallId, s.callId, s.isError, s.error?.code])).toEqual([
      ['call_code', 'call_code.1', false, undefined],
      ['call_code', 'call_code.2', true, 'invalid_arguments'],
    ]);
    const types = await h.types();
    expect(types.slice(types.indexOf('tool/call'), types.indexOf('tool/result') + 1)).toEqual([
      'tool/call',
      'tool/code-dispatch-start',
      'tool/code-dispatch',
      'tool/code-dispatch-start',
      'tool/code-dispatch',
      'tool/result',
    ]);
    const result = payloadOf(
      events.find((e) => e.payload.case === 'toolResult'),
      'toolResult',
    );
    expect(result).toMatchObject({ callId: 'call_code', isError: false, metaJson: '' });
    expect(JSON.stringify(result.content)).toContain('echo: a / invalid_arguments');
  });
});
