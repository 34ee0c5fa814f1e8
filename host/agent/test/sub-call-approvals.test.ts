import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createConversation } from '@dsh/card-models';
import { ApprovalDecision } from '@dsh/gen/events';
import type { ApprovalPolicy } from '../src/index.js';
import { createFirstPartyTools, createSearxngProvider, type FirstPartyTools } from '@dsh/tools';
import { loopback } from '@dsh/tools/test-kit';
import { textReply, toolReply } from '@dsh/providers/test-kit';
import { onAppended } from '@dsh/journal/test-kit';
import { payloadOf, startHarness, type Harness } from './harness.js';

// Every request any tool makes to this server is counted: a denied call must make none.
let server: Server;
let base: string;
const requests: string[] = [];
beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push(req.url ?? '');
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"results": []}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

let h: Harness;
let tools: FirstPartyTools;
afterEach(async () => {
  await h.close();
  await tools.dispose();
});

/** One first-party tool called from a program, and how to see that it did something. */
interface SubCallCase {
  tool: string;
  args: (cwd: string) => unknown;
  /** True when a trace of the call exists (a file, a request, a question, leaked data). */
  ran: (h: Harness, resultText: string) => Promise<boolean> | boolean;
}

const marker = (cwd: string, name: string) => join(cwd, name);
const secret = 'the-secret-text';

const cases: SubCallCase[] = [
  {
    tool: 'bash',
    args: () => ({ command: 'touch ran-bash' }),
    ran: (h) => existsSync(marker(h.cwd, 'ran-bash')),
  },
  {
    tool: 'pwsh',
    args: () => ({ command: 'New-Item ran-pwsh' }),
    ran: (h, text) => existsSync(marker(h.cwd, 'ran-pwsh')) || text.includes('not_installed'),
  },
  {
    tool: 'terminal_send',
    args: () => ({ session: 's1', input: 'touch ran-terminal\n' }),
    ran: (h) => existsSync(marker(h.cwd, 'ran-terminal')),
  },
  {
    tool: 'read',
    args: () => ({ file_path: 'secret.txt' }),
    ran: (_h, text) => text.includes(secret),
  },
  {
    tool: 'write',
    args: () => ({ file_path: 'ran-write.txt', content: 'x' }),
    ran: (h) => existsSync(marker(h.cwd, 'ran-write.txt')),
  },
  {
    tool: 'edit',
    args: () => ({ file_path: 'secret.txt', old_string: secret, new_string: 'edited' }),
    ran: (h) => !readFileSync(marker(h.cwd, 'secret.txt'), 'utf8').includes(secret),
  },
  {
    tool: 'str_replace_editor',
    args: () => ({ command: 'create', path: 'ran-editor.txt', file_text: 'x' }),
    ran: (h) => existsSync(marker(h.cwd, 'ran-editor.txt')),
  },
  {
    tool: 'grep',
    args: () => ({ pattern: secret }),
    ran: (_h, text) => text.includes('secret.txt:1:'),
  },
  {
    tool: 'glob',
    args: () => ({ pattern: '*.txt' }),
    ran: (_h, text) => text.includes('secret.txt'),
  },
  {
    tool: 'web_fetch',
    args: () => ({ url: `${base}/fetch` }),
    ran: () => requests.includes('/fetch'),
  },
  {
    tool: 'web_search',
    args: () => ({ query: 'denied search' }),
    ran: () => requests.some((url) => url.includes('denied')),
  },
  {
    tool: 'todo_write',
    args: () => ({ todos: [{ content: 'x', status: 'pending' }] }),
    ran: (_h, text) => text.includes('[ ] x'),
  },
  {
    tool: 'ask_user',
    args: () => ({ questions: [{ question: 'Proceed?' }] }),
    ran: async (h) => (await h.events()).some((e) => e.payload.case === 'questionRequested'),
  },
  {
    tool: 'skill',
    args: () => ({ name: 'secret-skill' }),
    ran: (_h, text) => text.includes(secret),
  },
  {
    tool: 'run_code',
    args: () => ({
      code: 'await tools.write({ file_path: "ran-nested.txt", content: "x" })',
      description: 'nested',
    }),
    ran: (h) => existsSync(marker(h.cwd, 'ran-nested.txt')),
  },
];

/** A program that makes one call and returns its text, or its error code and message. */
function program(tool: string, args: unknown): string {
  return `try { return 'ran: ' + await tools.${tool}(${JSON.stringify(args)}); } catch (e) { return e.code + ': ' + e.message; }`;
}

async function start(approvals: Record<string, ApprovalPolicy>): Promise<Harness> {
  tools = createFirstPartyTools({
    homeDir: '/nonexistent-home',
    allowNetworks: loopback,
    searchProvider: createSearxngProvider(`${base}/`),
  });
  const harness = await startHarness({ tools: tools.tools, approvals });
  writeFileSync(join(harness.cwd, 'secret.txt'), `${secret}\n`);
  mkdirSync(join(harness.cwd, '.dsh/skills'), { recursive: true });
  writeFileSync(join(harness.cwd, '.dsh/skills/secret-skill.md'), secret);
  return harness;
}

/** Runs `run_code` with the program and returns the top-level result text. */
async function runProgram(harness: Harness, code: string): Promise<string> {
  harness.server.reply(
    toolReply([
      { id: 'call_code', name: 'run_code', args: JSON.stringify({ code, description: 'd' }) },
    ]),
    textReply(['Done.']),
  );
  await harness.prompt('go');
  await harness.runtime.idle(harness.sessionId);
  const result = (await harness.events()).find((e) => e.payload.case === 'toolResult');
  return JSON.stringify(payloadOf(result, 'toolResult').content);
}

/** Answers every approval: allow the top-level call, deny every sub-call. */
async function denySubCalls(harness: Harness): Promise<void> {
  await onAppended(harness.journal, (events) => {
    for (const event of events) {
      if (event.payload.case !== 'approvalRequested') continue;
      const { approvalId, callId } = event.payload.value;
      void harness.runtime.respond(harness.sessionId, {
        case: 'approval',
        value: {
          $typeName: 'dsh.session.v1.ApprovalResponse',
          approvalId,
          decision: callId === 'call_code' ? ApprovalDecision.ALLOW : ApprovalDecision.DENY,
        },
      });
    }
  });
}

describe('approval of run_code sub-calls', () => {
  it.each(cases)('allow: $tool leaves the trace the other cases look for', async (c) => {
    h = await start({ [c.tool]: 'allow' });
    await onAppended(h.journal, (events) => {
      for (const event of events) {
        if (event.payload.case !== 'questionRequested') continue;
        void h.runtime.respond(h.sessionId, {
          case: 'question',
          value: {
            $typeName: 'dsh.session.v1.QuestionResponse',
            questionId: event.payload.value.questionId,
            answers: [{ $typeName: 'dsh.session.v1.Answer', values: ['yes'] }],
            cancelled: false,
          },
        });
      }
    });
    requests.length = 0;
    const text = await runProgram(h, program(c.tool, c.args(h.cwd)));
    if (c.tool === 'terminal_send') {
      for (let i = 0; i < 50 && !existsSync(marker(h.cwd, 'ran-terminal')); i++) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(await c.ran(h, text)).toBe(true);
  });

  it.each(cases)('deny: $tool never runs', async (c) => {
    h = await start({ [c.tool]: 'deny' });
    requests.length = 0;
    const text = await runProgram(h, program(c.tool, c.args(h.cwd)));
    expect(await c.ran(h, text)).toBe(false);
    const types = (await h.events()).map((e) => e.payload.case);
    expect(types).not.toContain('approvalRequested');
    const settled = (await h.events()).find((e) => e.payload.case === 'codeDispatch');
    if (c.tool === 'run_code') {
      // Denying run_code denies the outer program too: no code runs at any depth.
      expect(text).toContain('Error: run_code is not allowed');
      expect(settled).toBeUndefined();
      return;
    }
    expect(text).toContain(`denied: ${c.tool} is not allowed`);
    expect(payloadOf(settled, 'codeDispatch')).toMatchObject({
      callId: 'call_code.1',
      isError: true,
      error: { code: 'denied' },
    });
  });

  it.each(cases)('ask, answered deny: $tool never runs', async (c) => {
    h = await start({ [c.tool]: 'ask' });
    await denySubCalls(h);
    requests.length = 0;
    const text = await runProgram(h, program(c.tool, c.args(h.cwd)));
    expect(text).toContain(`denied: The person denied this ${c.tool} call.`);
    expect(await c.ran(h, text)).toBe(false);
    const events = await h.events();
    const asked = events
      .filter((e) => e.payload.case === 'approvalRequested')
      .map((e) => payloadOf(e, 'approvalRequested'));
    const sub = asked.find((a) => a.callId === 'call_code.1');
    expect(sub).toMatchObject({
      toolName: c.tool,
      reason: `the approval policy for ${c.tool} is "ask", called by the run_code program of call_code`,
    });
    const resolved = events
      .filter((e) => e.payload.case === 'approvalResolved')
      .map((e) => payloadOf(e, 'approvalResolved'));
    expect(resolved).toContainEqual(
      expect.objectContaining({ approvalId: sub?.approvalId, decision: ApprovalDecision.DENY }),
    );
  });

  it('applies the policy inside nested run_code: the innermost bash is denied', async () => {
    h = await start({ bash: 'deny' });
    const inner = program('bash', { command: 'touch ran-deep' });
    const middle = `return await tools.run_code(${JSON.stringify({ code: inner, description: 'inner' })});`;
    const text = await runProgram(h, middle);
    expect(text).toContain('denied: bash is not allowed');
    expect(existsSync(marker(h.cwd, 'ran-deep'))).toBe(false);
    const starts = (await h.events())
      .filter((e) => e.payload.case === 'codeDispatchStart')
      .map((e) => payloadOf(e, 'codeDispatchStart'));
    expect(starts.map((s) => [s.parentCallId, s.callId, s.name])).toEqual([
      ['call_code', 'call_code.1', 'run_code'],
      ['call_code.1', 'call_code.1.1', 'bash'],
    ]);
  });

  it('shows a pending sub-call approval to the clients, beside its running sub-call', async () => {
    h = await start({});
    h.server.reply(
      toolReply([
        {
          id: 'call_code',
          name: 'run_code',
          args: JSON.stringify({ code: program('bash', { command: 'true' }), description: 'd' }),
        },
      ]),
      textReply(['Done.']),
    );
    await h.prompt('go');
    await h.waitFor((e) => e.payload.case === 'approvalRequested');
    const folded = createConversation().tryApply({ kind: 'replace', events: await h.events() });
    if (!folded.ok) throw new Error(folded.error.message);
    expect(folded.snapshot.pending).toMatchObject([
      {
        kind: 'approval',
        callId: 'call_code.1',
        toolName: 'bash',
        reason: 'runs a shell command, called by the run_code program of call_code',
      },
    ]);
    const [running] = folded.snapshot.runningCalls;
    expect(running?.callId).toBe('call_code');
    expect(running?.subCalls.map((sub) => [sub.callId, sub.name, sub.status])).toEqual([
      ['call_code.1', 'bash', 'running'],
    ]);
    await h.runtime.cancel(h.sessionId);
  });

  it('asks by default for a sub-call that reads outside the working directory', async () => {
    h = await start({});
    await denySubCalls(h);
    const text = await runProgram(h, program('read', { file_path: '/etc/passwd' }));
    expect(text).toContain('denied: The person denied this read call.');
    expect(text).not.toContain('root:');
    const asked = (await h.events()).find((e) => e.payload.case === 'approvalRequested');
    expect(payloadOf(asked, 'approvalRequested')).toMatchObject({
      callId: 'call_code.1',
      reason:
        'reads outside the session directory: /etc/passwd, called by the run_code program of call_code',
    });
  });
});
