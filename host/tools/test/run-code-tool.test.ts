import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCodes, parseShellEnding } from '@dsh/card-models/contract';
import {
  createRunCodeTool,
  createToolRuntime,
  readTool,
  resultText,
  type ToolContext,
} from '../src/index.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

/** Runs `run_code` top-level with a recording dispatcher, as the agent loop does. */
async function runCode(code: string, overrides: Partial<ToolContext> = {}) {
  const events: string[] = [];
  const ctx = h.context({ callId: 'rc', ...overrides });
  ctx.dispatch = h.runtime.createDispatch(ctx, {
    start: (sub) =>
      events.push(`start ${sub.parentCallId} ${sub.callId} ${sub.name} ${sub.arguments}`),
    settle: (sub) =>
      events.push(
        `settle ${sub.parentCallId} ${sub.callId} ${sub.result.isError ? 'error' : 'ok'}`,
      ),
  });
  const result = await h.runtime.run(
    'run_code',
    JSON.stringify({ code, description: 'test' }),
    ctx,
    {
      topLevel: true,
    },
  );
  return { result, text: resultText(result), events };
}

describe('run_code', () => {
  it.each([
    { code: 'return 1 + 1', text: 'Result: 2' },
    { code: 'console.log("a", {b: 1}); return [1, "x"]', text: 'a {"b":1}\nResult: [1,"x"]' },
    { code: 'const x = await Promise.resolve(5); console.log(x)', text: '5' },
    { code: '', text: '' },
    { code: ';', text: '(the program printed nothing and returned nothing)' },
  ])('$code', async ({ code, text }) => {
    const ran = await runCode(code);
    if (code === '') {
      expect(ran.result.error?.code).toBe(errorCodes.invalidArguments);
      return;
    }
    expect(ran.result.isError).toBe(false);
    expect(ran.text).toBe(text);
    expect(ran.result.metaJson).toBe('');
  });

  it.each([
    { name: 'process', code: 'return typeof process' },
    { name: 'require', code: 'return typeof require' },
    {
      name: 'global constructor escape',
      code: 'return this?.constructor?.constructor?.("return typeof process")()',
    },
    {
      name: 'tools constructor escape',
      code: 'return tools.constructor.constructor("return typeof process")()',
    },
    {
      name: 'tool function escape',
      code: 'return tools.read.constructor("return typeof process")()',
    },
    {
      name: 'import()',
      code: 'try { await import("node:fs"); return "imported" } catch { return "undefined" }',
    },
  ])('is isolated: $name', async ({ code }) => {
    const { text } = await runCode(code);
    expect(text).toBe('Result: "undefined"');
  });

  it('calls tools through the dispatcher and records sub-calls', async () => {
    writeFileSync(join(h.cwd, 'f.txt'), 'hello\n');
    const code = `
      const out = await tools.bash({ command: 'echo sub' });
      const file = await tools.read({ file_path: 'f.txt' });
      console.log(out);
      return file.split('\\n')[1];
    `;
    const { result, text, events } = await runCode(code);
    expect(result.isError).toBe(false);
    expect(text.split('\n')[0]).toBe('sub');
    expect(parseShellEnding(text.split('\nResult')[0] ?? '')?.ending).toEqual({
      kind: 'exit',
      code: 0,
    });
    expect(text).toContain('Result: "     1\\thello"');
    expect(events).toEqual([
      'start rc rc.1 bash {"command":"echo sub"}',
      'settle rc rc.1 ok',
      'start rc rc.2 read {"file_path":"f.txt"}',
      'settle rc rc.2 ok',
    ]);
  });

  it('gives sub-calls no metadata', async () => {
    writeFileSync(join(h.cwd, 'f.txt'), 'x\n');
    const metas: string[] = [];
    const ctx = h.context({ callId: 'rc' });
    ctx.dispatch = h.runtime.createDispatch(ctx, {
      settle: (sub) => metas.push(sub.result.metaJson),
    });
    await h.runtime.run(
      'run_code',
      JSON.stringify({ code: 'await tools.read({file_path: "f.txt"})', description: 'd' }),
      ctx,
      {
        topLevel: true,
      },
    );
    expect(metas).toEqual(['']);
  });

  it('rejects a failed sub-call with its code, which the program can catch', async () => {
    const code = `
      try { await tools.read({ file_path: 'missing.txt' }); }
      catch (e) { return [e.code, e instanceof Error, e.message, e.content]; }
    `;
    const { text, events } = await runCode(code);
    const missing = join(h.cwd, 'missing.txt');
    expect(text).toBe(
      `Result: ${JSON.stringify(['not_found', true, `${missing} does not exist`, `Error: ${missing} does not exist`])}`,
    );
    expect(events[1]).toBe('settle rc rc.1 error');
  });

  it('reports unknown tools as failed sub-calls', async () => {
    const { text } = await runCode('await tools.nope({})');
    expect(text).toMatch(/^Error: unknown tool "nope" \(available: bash, /);
  });

  it('stops at the call limit', async () => {
    const runtime = createToolRuntime([
      readTool,
      createRunCodeTool({ timeoutMs: 10_000, maxCalls: 3 }),
    ]);
    writeFileSync(join(h.cwd, 'f.txt'), 'x\n');
    const ctx = h.context({ callId: 'rc' });
    ctx.dispatch = runtime.createDispatch(ctx);
    const code = `
      let done = 0;
      try { for (let i = 0; i < 10; i++) { await tools.read({ file_path: 'f.txt' }); done++; } }
      catch (e) { return done + ' ' + e.message; }
    `;
    const result = await runtime.run('run_code', JSON.stringify({ code, description: 'd' }), ctx, {
      topLevel: true,
    });
    expect(resultText(result)).toBe(
      'Result: "3 call limit reached: a program may make at most 3 tool calls"',
    );
  });

  it.each([
    { name: 'sync loop', code: 'while (true) {}' },
    { name: 'microtask loop', code: 'while (true) await null;' },
    { name: 'slow tool', code: 'await tools.bash({ command: "sleep 5" })' },
  ])('times out: $name', async ({ code }) => {
    const runtime = createToolRuntime([
      ...h.tools.tools.filter((t) => t.name !== 'run_code'),
      createRunCodeTool({ timeoutMs: 500, maxCalls: 5 }),
    ]);
    const ctx = h.context({ callId: 'rc' });
    ctx.dispatch = runtime.createDispatch(ctx);
    const result = await runtime.run('run_code', JSON.stringify({ code, description: 'd' }), ctx, {
      topLevel: true,
    });
    expect(result.error?.code).toBe(errorCodes.timeout);
    expect(resultText(result)).toContain('time limit');
  });

  it.each([
    { code: 'throw new TypeError("bad")', message: 'Error: TypeError: bad' },
    { code: 'throw new Error("plain")', message: 'Error: plain' },
    { code: 'return (', message: 'Error: SyntaxError' },
    { code: 'await new Promise(() => {})', message: 'can never settle' },
    { code: 'throw 42', message: 'Error: thrown: 42' },
  ])('reports program errors: $code', async ({ code, message }) => {
    const { result, text } = await runCode(`console.log("before");\n${code}`);
    expect(result.error?.code).toBe('program_error');
    expect(text).toContain(message);
    if (!code.startsWith('return (')) expect(text.startsWith('before\n')).toBe(true);
  });

  it('is interrupted by the abort signal and the sub-call is killed', async () => {
    const controller = new AbortController();
    const running = runCode('await tools.bash({ command: "sleep 100" })', {
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 200);
    const { result } = await running;
    expect(result.error?.code).toBe(errorCodes.interrupted);
  });

  it('fails clearly without a dispatcher', async () => {
    const { result } = await h.run('run_code', { code: 'return 1', description: 'd' });
    expect(result.error?.code).toBe('unavailable');
  });
});
