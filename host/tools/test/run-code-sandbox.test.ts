import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { errorCodes } from '@dsh/card-models/contract';
import {
  createRunCodeTool,
  createToolRuntime,
  readTool,
  resultText,
  writeTool,
} from '../src/index.js';
import { lagDuring } from './event-loop-lag.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness();
});
afterEach(async () => {
  await h.dispose();
});

// A short deadline for attacks that run until stopped, a long one for those that end
// by themselves (memory, stack) so a busy machine cannot turn them into timeouts.
const quick = createToolRuntime([readTool, writeTool, createRunCodeTool({ timeoutMs: 1500 })]);
const patient = createToolRuntime([readTool, writeTool, createRunCodeTool({ timeoutMs: 20_000 })]);

async function run(code: string, runtime = patient) {
  const ctx = h.context({ callId: 'rc' });
  ctx.dispatch = runtime.createDispatch(ctx);
  const result = await runtime.run('run_code', JSON.stringify({ code, description: 'd' }), ctx, {
    topLevel: true,
  });
  return { result, text: resultText(result) };
}

describe('run_code sandbox under attack', () => {
  it.each([
    {
      name: 'a getter on the returned value',
      code: 'return { get x() { while (true) {} } }',
      code_: errorCodes.timeout,
    },
    {
      name: 'a Proxy as the returned value',
      code: 'return new Proxy({}, { ownKeys() { while (true) {} }, get() { while (true) {} } })',
      code_: errorCodes.timeout,
    },
    {
      name: 'a getter on a thrown error',
      code: 'throw { get message() { while (true) {} } }',
      code_: errorCodes.timeout,
    },
    { name: 'a synchronous loop', code: 'while (true) {}', code_: errorCodes.timeout },
    {
      name: 'an allocation bomb',
      code: 'const a = []; while (true) a.push("x".repeat(1e6) + a.length);',
      code_: 'memory_limit',
      message: 'the program ran out of its 64 MB memory limit',
    },
    {
      name: 'deep recursion',
      code: 'function f(n) { return f(n + 1) + 1; } return f(0);',
      code_: 'program_error',
      message: 'stack overflow',
    },
    {
      // Serialising it never polls the interrupt handler: the worker is terminated.
      name: 'a deeply nested value to serialise',
      code: 'let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return o;',
      code_: errorCodes.timeout,
    },
    {
      name: 'an endless promise chain',
      code: 'const f = () => { Promise.resolve().then(f); }; f(); await new Promise(() => {});',
      code_: errorCodes.timeout,
    },
    {
      name: 'a string too big to serialise',
      code: 'return "x".repeat(60e6)',
      code_: 'memory_limit',
      message: 'the program ran out of its 64 MB memory limit (InternalError: out of memory)',
    },
    {
      name: 'a catastrophic regular expression',
      code: 'return /^(a+)+$/.test("a".repeat(40) + "b")',
      code_: errorCodes.timeout,
    },
  ])('ends $name with a structured error while the host keeps serving', async (c) => {
    const runtime = c.code_ === errorCodes.timeout ? quick : patient;
    const { value, p99, worst } = await lagDuring(() => run(c.code, runtime));
    expect(value.result.error?.code).toBe(c.code_);
    if (c.message !== undefined) expect(value.text).toContain(c.message);
    // A blocked loop shows as one lag as long as the attack (1.5 s and more); a machine
    // busy with other processes adds scattered lags, which p99 and a second's bound absorb.
    expect(p99, `lag p99 ${p99.toFixed(1)} ms, max ${worst.toFixed(1)} ms`).toBeLessThan(250);
    expect(worst).toBeLessThan(1000);
  });

  it('clips a huge result and says how long it was', async () => {
    const { result, text } = await run('return "y".repeat(5e6)');
    expect(result.isError).toBe(false);
    expect(text.length).toBeLessThan(31_000);
    expect(text).toMatch(/^Result: "y{29991}\n\[output truncated: 5000010 characters in total\]$/);
  });

  it('clips huge logs and counts every character printed', async () => {
    const { text } = await run(
      'for (let i = 0; i < 100; i++) console.log("z".repeat(1000)); return 1',
    );
    expect(text.length).toBeLessThan(31_000);
    expect(text).toMatch(/\[output truncated: 100109 characters in total\]$/);
  });

  it('keeps working after a worker was terminated', async () => {
    await run('let o = {}; for (let i = 0; i < 200000; i++) o = { o }; return o;', quick);
    const { text } = await run('return 6 * 7');
    expect(text).toBe('Result: 42');
  });

  it('stops a sub-call still running when the program ends', async () => {
    const full = createToolRuntime([
      ...h.tools.tools.filter((t) => t.name !== 'run_code'),
      createRunCodeTool({ timeoutMs: 5000 }),
    ]);
    const ctx = h.context({ callId: 'rc' });
    const settled: string[] = [];
    ctx.dispatch = full.createDispatch(ctx, {
      settle: (sub) => settled.push(`${sub.callId} ${sub.result.error?.code ?? 'ok'}`),
    });
    const code = 'tools.bash({ command: "sleep 30" }); return "left it running"';
    const started = performance.now();
    const result = await full.run('run_code', JSON.stringify({ code, description: 'd' }), ctx, {
      topLevel: true,
    });
    expect(resultText(result)).toBe('Result: "left it running"');
    expect(settled).toEqual([`rc.1 ${errorCodes.interrupted}`]);
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('refuses to nest deeper than its limit', async () => {
    const full = createToolRuntime([createRunCodeTool({ maxDepth: 2 })]);
    const ctx = h.context({ callId: 'rc' });
    ctx.dispatch = full.createDispatch(ctx);
    const inner = 'return await tools.run_code({ code: "return 1", description: "3" })';
    const middle = `return await tools.run_code(${JSON.stringify({ code: inner, description: '2' })})`;
    const result = await full.run(
      'run_code',
      JSON.stringify({
        code: `try { ${middle} } catch (e) { return e.message }`,
        description: '1',
      }),
      ctx,
      { topLevel: true },
    );
    expect(resultText(result)).toContain('run_code nests at most 2 programs deep');
  });
});
