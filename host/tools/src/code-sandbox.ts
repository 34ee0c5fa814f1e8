import vm from 'node:vm';

/**
 * What a sandboxed program's `tools.<name>(args)` call settles with: the text it
 * resolves with, or a rejection `Error(message)` carrying `code` and `content`.
 */
export interface SandboxCallResult {
  text: string;
  isError: boolean;
  code?: string;
  message?: string;
}

/** Options of `runSandboxed`. */
export interface SandboxOptions {
  /** Performs a `tools.<name>(args)` call; `argsJson` is the JSON of the program's argument. */
  call(name: string, argsJson: string): Promise<SandboxCallResult>;
  /** Time limit for the whole program, synchronous parts included. */
  timeoutMs: number;
  /** Most tool calls a program may make; later calls reject. */
  maxCalls: number;
  signal: AbortSignal;
}

/** How a sandboxed program ended. */
export type SandboxOutcome =
  | { ok: true; logs: string[]; result?: string }
  | {
      ok: false;
      logs: string[];
      code: 'timeout' | 'program_error' | 'interrupted';
      message: string;
    };

// Runs inside the context. Only primitives cross from the host: `hostCall` stays in
// this closure (a host function reachable from the program would hand it the host's
// `Function`), and settlements arrive through primitive globals read by `__dshSettle`.
const bootstrap = `(function (hostCall) {
  'use strict';
  const logs = [];
  const pending = new Map();
  const state = { done: false, ok: false, result: undefined, error: undefined };
  let nextId = 0;
  const json = (v) => {
    try { const s = JSON.stringify(v); return s === undefined ? String(v) : s; } catch { return String(v); }
  };
  const show = (v) => {
    if (typeof v === 'string') return v;
    return json(v);
  };
  const log = (...values) => { if (logs.length < 2000) logs.push(values.map(show).join(' ')); };
  const call = (name, args) => new Promise((resolve, reject) => {
    const id = ++nextId;
    let text;
    try { text = JSON.stringify(args === undefined ? {} : args); } catch (e) { reject(e); return; }
    pending.set(id, { resolve, reject });
    const refused = hostCall(name, typeof text === 'string' ? text : '{}', id);
    if (typeof refused === 'string') { pending.delete(id); reject(new Error(refused)); }
  });
  const settle = () => {
    const id = globalThis.__dshId, p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (globalThis.__dshIsError) {
      const e = new Error(globalThis.__dshMessage);
      e.code = globalThis.__dshCode;
      e.content = globalThis.__dshText;
      p.reject(e);
    } else p.resolve(globalThis.__dshText);
  };
  const run = (main) => {
    main().then(
      (value) => { state.done = true; state.ok = true; state.result = value === undefined ? undefined : json(value); },
      (e) => {
        state.done = true;
        state.error = !(e instanceof Error) ? 'thrown: ' + show(e) : e.name === 'Error' ? e.message : e.name + ': ' + e.message;
      },
    );
  };
  const tools = new Proxy(Object.freeze({}), {
    get: (_t, name) => (typeof name === 'string' ? (args) => call(name, args) : undefined),
  });
  const console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  Object.defineProperty(globalThis, 'tools', { value: tools, enumerable: true });
  Object.defineProperty(globalThis, 'console', { value: console, enumerable: true, writable: true });
  Object.defineProperty(globalThis, '__dshSettle', { value: settle });
  Object.defineProperty(globalThis, '__dshRun', { value: run });
  return { logs, state };
})`;

const settleScript = new vm.Script('__dshSettle()');

/**
 * Runs JavaScript (top-level `await` and `return` allowed) in a fresh `node:vm`
 * context with no `require`, `process` or host objects; only `tools` and `console`.
 * Every entry into the context runs under the remaining time budget, so runaway
 * synchronous code and endless promise chains are both stopped.
 */
export function runSandboxed(code: string, options: SandboxOptions): Promise<SandboxOutcome> {
  const sandbox: Record<string, unknown> = Object.create(null);
  const context = vm.createContext(sandbox, {
    microtaskMode: 'afterEvaluate',
    codeGeneration: { strings: true, wasm: false },
  });
  const deadline = Date.now() + options.timeoutMs;
  let calls = 0;
  let inFlight = 0;
  let settled = false;

  return new Promise<SandboxOutcome>((resolve) => {
    const api = { logs: [] as unknown[], state: {} as Record<string, unknown> };
    const logs = () => {
      // An index loop: the program may have replaced the context's Array methods.
      const lines: string[] = [];
      for (let i = 0; i < api.logs.length; i++) {
        const line = api.logs[i];
        if (typeof line === 'string') lines.push(line);
      }
      return lines;
    };
    const finish = (outcome: SandboxOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const fail = (code: 'timeout' | 'program_error' | 'interrupted', message: string) =>
      finish({ ok: false, logs: logs(), code, message });
    const timedOut = () =>
      fail('timeout', `the program ran past its ${options.timeoutMs} ms time limit`);
    const enter = (script: vm.Script) => {
      if (settled) return;
      try {
        script.runInContext(context, { timeout: Math.max(1, deadline - Date.now()) });
      } catch (error) {
        if ((error as { code?: unknown }).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT')
          return timedOut();
        return fail('program_error', describe(error));
      }
      check();
    };
    const check = () => {
      const state = api.state;
      if (state.done === true) {
        if (state.ok === true) {
          const result = typeof state.result === 'string' ? state.result : undefined;
          return finish({ ok: true, logs: logs(), ...(result === undefined ? {} : { result }) });
        }
        return fail(
          'program_error',
          typeof state.error === 'string' ? state.error : 'the program failed',
        );
      }
      if (inFlight === 0) {
        fail(
          'program_error',
          'the program is waiting for a promise that can never settle (only tools.* calls complete later)',
        );
      }
    };
    const hostCall = (name: unknown, argsJson: unknown, id: unknown): string | undefined => {
      if (settled) return 'the program has already ended';
      if (typeof name !== 'string' || typeof argsJson !== 'string' || typeof id !== 'number') {
        return 'tools calls take one JSON-serialisable argument object';
      }
      if (++calls > options.maxCalls)
        return `call limit reached: a program may make at most ${options.maxCalls} tool calls`;
      inFlight++;
      const deliver = (result: SandboxCallResult) => {
        inFlight--;
        if (settled) return;
        sandbox.__dshId = id;
        sandbox.__dshIsError = result.isError;
        sandbox.__dshText = result.text;
        sandbox.__dshCode = result.code ?? '';
        sandbox.__dshMessage = result.message ?? result.text;
        enter(settleScript);
      };
      options
        .call(name, argsJson)
        .then(deliver, (error: unknown) =>
          deliver({ text: describe(error), isError: true, code: 'internal' }),
        );
      return undefined;
    };
    const timer = setTimeout(timedOut, options.timeoutMs);
    const onAbort = () => fail('interrupted', 'the program was interrupted');
    options.signal.addEventListener('abort', onAbort, { once: true });
    if (options.signal.aborted) return onAbort();

    let main: vm.Script;
    try {
      const start = vm.runInContext(bootstrap, context) as (call: typeof hostCall) => typeof api;
      Object.assign(api, start(hostCall));
      main = new vm.Script(`__dshRun(async () => {\n${code}\n})`, { filename: 'run_code.js' });
    } catch (error) {
      return fail('program_error', describe(error));
    }
    enter(main);
  });
}

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'object' && error !== null) return 'the program threw a non-error value';
  return String(error);
}
