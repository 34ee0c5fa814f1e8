// @ts-check
// The run_code sandbox's worker thread: runs one program at a time in a fresh QuickJS
// runtime (WebAssembly) with a memory limit, a stack limit and an interrupt handler that
// stops it at its deadline or when the host raises the shared abort flag. Only strings,
// numbers and booleans cross to the host thread. Plain JavaScript, so the worker starts
// without the TypeScript loader.
import { parentPort } from 'node:worker_threads';
import { clearTimeout, setImmediate, setTimeout } from 'node:timers';
import { workerData } from 'node:worker_threads';
import { lowerThreadPriority } from './lower-thread-priority.js';
import { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } from 'quickjs-emscripten';

/** @typedef {import('quickjs-emscripten').QuickJSHandle} Handle */
/** @typedef {import('quickjs-emscripten').QuickJSContext} Context */
/**
 * @typedef {{ kind: 'run', code: string, timeoutMs: number, maxCalls: number,
 *   stackBytes: number, maxChars: number, maxArgsChars: number,
 *   abort: SharedArrayBuffer }} RunMessage
 * @typedef {{ kind: 'settle', id: number, isError: boolean, text: string, code: string,
 *   message: string }} SettleMessage
 */

if (!parentPort) throw new Error('code-sandbox-worker.js runs as a worker thread');
const port = parentPort;
lowerThreadPriority(10);
// QuickJS's own limit bounds each allocation (its running total is inexact in this build,
// which lacks malloc_usable_size); the WebAssembly memory's fixed maximum bounds them all.
const pageBytes = 65536;
const { memoryBytes } = /** @type {{ memoryBytes: number }} */ (workerData);
// `WebAssembly` is a global of Node that the ES library typings used here do not declare.
const Memory = /** @type {new (d: { initial: number, maximum: number }) => never} */ (
  /** @type {{ WebAssembly: { Memory: unknown } }} */ (/** @type {unknown} */ (globalThis))
    .WebAssembly.Memory
);
/** @type {NonNullable<import('quickjs-emscripten').CustomizeVariantOptions['emscriptenModule']>} */
const silent = /** @type {never} */ ({ printErr: () => undefined, print: () => undefined });
const quickjs = await newQuickJSWASMModuleFromVariant(
  newVariant(RELEASE_SYNC, {
    wasmMemory: new Memory({ initial: 256, maximum: Math.ceil(memoryBytes / pageBytes) + 256 }),
    // The engine's own messages (an assertion when a runtime cannot be freed) are not the
    // host's output; the worker exits instead and the host starts a new one.
    emscriptenModule: silent,
  }),
);

// Runs inside the VM before the program. The host functions reach the VM only as the
// arguments of this function and stay in its closure, so the program reaches only `tools`
// and `console`. Everything the host receives is a string or number the VM produced.
const bootstrap = `(function (hostCall, hostLog, hostDone, maxChars) {
  'use strict';
  const stringify = JSON.stringify;
  const pending = new Map();
  let nextId = 0;
  let lines = 0;
  const text = (v) => { try { return String(v); } catch { return '[a value that cannot be shown]'; } };
  // A value JSON cannot express (a cycle, a BigInt) is shown as text; running out of
  // memory is not hidden that way.
  const json = (v) => {
    try {
      const s = stringify(v);
      return s === undefined ? text(v) : s;
    } catch (e) {
      if (e instanceof InternalError) throw e;
      return text(v);
    }
  };
  const show = (v) => (typeof v === 'string' ? v : json(v));
  const clip = (s) => (s.length > maxChars ? s.slice(0, maxChars) : s);
  const log = (...values) => {
    if (lines >= 2000) return;
    lines++;
    let line = '';
    for (let i = 0; i < values.length; i++) line += (i === 0 ? '' : ' ') + show(values[i]);
    hostLog(clip(line), line.length);
  };
  const call = (name, args) => new Promise((resolve, reject) => {
    const id = ++nextId;
    let argsJson;
    try { argsJson = stringify(args === undefined ? {} : args); } catch (e) { reject(e); return; }
    pending.set(id, { resolve, reject });
    const refused = hostCall(name, typeof argsJson === 'string' ? argsJson : '{}', id);
    if (typeof refused === 'string') { pending.delete(id); reject(new Error(refused)); }
  });
  const settle = (id, isError, content, code, message) => {
    const p = pending.get(id);
    if (!p) return;
    pending.delete(id);
    if (!isError) return p.resolve(content);
    const e = new Error(message);
    e.code = code;
    e.content = content;
    p.reject(e);
  };
  const describe = (e) => {
    try {
      if (!(e instanceof Error)) return 'thrown: ' + show(e);
      return e.name === 'Error' ? text(e.message) : text(e.name) + ': ' + text(e.message);
    } catch { return 'the program threw a value that cannot be described'; }
  };
  const run = (main) => {
    main().then(
      (value) => {
        if (value === undefined) return hostDone(true);
        let result;
        try { result = json(value); } catch (e) { const m = describe(e); return hostDone(false, clip(m), m.length); }
        hostDone(true, clip(result), result.length);
      },
      (e) => { const message = describe(e); hostDone(false, clip(message), message.length); },
    );
  };
  const tools = new Proxy(Object.freeze({}), {
    get: (_t, name) => (typeof name === 'string' ? (args) => call(name, args) : undefined),
  });
  const console = Object.freeze({ log, info: log, warn: log, error: log, debug: log });
  Object.defineProperty(globalThis, 'tools', { value: tools, enumerable: true });
  Object.defineProperty(globalThis, 'console', { value: console, enumerable: true, writable: true });
  return { run, settle };
})`;

port.on('message', (/** @type {RunMessage | SettleMessage | { kind: 'abort' }} */ message) => {
  if (message.kind === 'run') current = runProgram(message);
  else if (message.kind === 'settle') current?.settle(message);
  else current?.stop();
});
port.postMessage({ kind: 'ready' });

/** @type {ReturnType<typeof runProgram> | undefined} */
let current;

/**
 * Starts a program. Its outcome goes to the host as one `done` message; after that the
 * VM is freed and the worker says `ready`, or exits when the VM could not be freed
 * cleanly (the host then starts a new worker).
 * @param {RunMessage} job
 */
function runProgram(job) {
  // 1: interrupted by the host, 2: past the deadline by the host's clock.
  const stop = new Int32Array(job.abort);
  const deadline = Date.now() + job.timeoutMs;
  const runtime = quickjs.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(job.stackBytes);
  runtime.setInterruptHandler(() => Atomics.load(stop, 0) !== 0 || Date.now() >= deadline);
  const vm = runtime.newContext();
  /** @type {Handle | undefined} */
  let api;
  /** @type {Handle | undefined} */
  let settleFn;
  let finished = false;
  let poisoned = false;
  let calls = 0;
  let inFlight = 0;
  let loggedChars = 0;
  const idle = setTimeout(() => pump(), Math.max(0, deadline - Date.now()));

  /** @param {Record<string, unknown>} outcome */
  const finish = (outcome) => {
    if (finished) return;
    finished = true;
    clearTimeout(idle);
    port.postMessage({ kind: 'done', outcome });
    setImmediate(cleanUp);
  };
  /** Ends the program when it was stopped or is past its deadline; says whether it did. */
  const stopped = () => {
    const flag = Atomics.load(stop, 0);
    if (flag === 0 && Date.now() < deadline) return false;
    finish({ code: flag === 1 ? 'interrupted' : 'timeout' });
    return true;
  };
  /** @param {unknown} error */
  const crashed = (error) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    poisoned = true;
    if (!stopped()) {
      const deep = /call stack size/i.test(message);
      finish({
        code: 'program_error',
        message: deep
          ? `the program nested too deeply for the sandbox's stack (${message})`
          : `the sandbox failed: ${message}`,
      });
    }
  };

  /** Describes an error handle the engine produced (a syntax error, an interrupt). */
  const engineError = (/** @type {Handle} */ error) => {
    try {
      const name = vm.getProp(error, 'name');
      const message = vm.getProp(error, 'message');
      const text = `${vm.typeof(name) === 'string' ? vm.getString(name) : 'Error'}: ${
        vm.typeof(message) === 'string' ? vm.getString(message) : 'unknown'
      }`;
      name.dispose();
      message.dispose();
      return text;
    } catch {
      return 'Error: the program failed';
    } finally {
      error.dispose();
    }
  };
  const failed = (/** @type {string} */ message) => {
    if (stopped()) return;
    if (/^InternalError: out of memory/.test(message)) {
      const limit = `the program ran out of its ${memoryBytes / 2 ** 20} MB memory limit`;
      return finish({ code: 'memory_limit', message: `${limit} (${message})` });
    }
    finish({ code: 'program_error', message });
  };

  const hostCall = vm.newFunction('hostCall', (nameH, argsH, idH) => {
    if (finished) return vm.newString('the program has already ended');
    if (
      vm.typeof(nameH) !== 'string' ||
      vm.typeof(argsH) !== 'string' ||
      vm.typeof(idH) !== 'number'
    ) {
      return vm.newString('tools calls take one JSON-serialisable argument object');
    }
    if (++calls > job.maxCalls) {
      return vm.newString(
        `call limit reached: a program may make at most ${job.maxCalls} tool calls`,
      );
    }
    const argsJson = vm.getString(argsH);
    if (argsJson.length > job.maxArgsChars) {
      return vm.newString(
        `the arguments of one tools call may be at most ${job.maxArgsChars} characters`,
      );
    }
    inFlight++;
    port.postMessage({ kind: 'call', id: vm.getNumber(idH), name: vm.getString(nameH), argsJson });
    return undefined;
  });
  const hostLog = vm.newFunction('hostLog', (lineH, lengthH) => {
    if (vm.typeof(lineH) !== 'string') return;
    const length = vm.typeof(lengthH) === 'number' ? vm.getNumber(lengthH) : 0;
    // Past the output limit only the length travels: the host shows the head and the total.
    const room = Math.max(0, job.maxChars - loggedChars);
    const line = room === 0 ? '' : vm.getString(lineH).slice(0, room);
    loggedChars += line.length;
    port.postMessage({ kind: 'log', line, length });
  });
  const hostDone = vm.newFunction('hostDone', (okH, textH, lengthH) => {
    const text =
      textH !== undefined && vm.typeof(textH) === 'string' ? vm.getString(textH) : undefined;
    const length =
      lengthH !== undefined && vm.typeof(lengthH) === 'number' ? vm.getNumber(lengthH) : 0;
    if (vm.typeof(okH) === 'boolean' && vm.dump(okH) === true) {
      finish(text === undefined ? { ok: true } : { ok: true, result: text, length });
    } else {
      failed(text ?? 'the program failed');
    }
  });

  const cleanUp = () => {
    if (poisoned) return process.exit(1);
    try {
      settleFn?.dispose();
      api?.dispose();
      for (const handle of [hostCall, hostLog, hostDone]) if (handle.alive) handle.dispose();
      vm.dispose();
      runtime.dispose();
    } catch {
      return process.exit(1);
    }
    current = undefined;
    port.postMessage({ kind: 'ready' });
  };

  const pump = () => {
    if (finished || stopped()) return;
    let result;
    try {
      result = runtime.executePendingJobs(512);
    } catch (error) {
      return crashed(error);
    }
    if (result.error) return failed(engineError(result.error));
    if (finished) return;
    if (runtime.hasPendingJob()) return void setImmediate(pump);
    if (inFlight === 0) {
      failed(
        'the program is waiting for a promise that can never settle (only tools.* calls complete later)',
      );
    }
  };

  try {
    const start = vm.evalCode(bootstrap, 'bootstrap.js', { type: 'global', strict: true });
    if (start.error) {
      failed(engineError(start.error));
    } else {
      const args = [hostCall, hostLog, hostDone, vm.newNumber(job.maxChars)];
      const made = vm.callFunction(start.value, vm.undefined, ...args);
      start.value.dispose();
      args[3]?.dispose();
      if (made.error) {
        failed(engineError(made.error));
      } else {
        api = made.value;
        settleFn = vm.getProp(api, 'settle');
        const runFn = vm.getProp(api, 'run');
        const main = vm.evalCode(`(async () => {\n${job.code}\n})`, 'run_code.js', {
          type: 'global',
        });
        if (main.error) {
          runFn.dispose();
          failed(engineError(main.error));
        } else {
          const ran = vm.callFunction(runFn, vm.undefined, main.value);
          runFn.dispose();
          main.value.dispose();
          if (ran.error) failed(engineError(ran.error));
          else ran.value.dispose();
          pump();
        }
      }
    }
  } catch (error) {
    crashed(error);
  }

  return {
    /** @param {SettleMessage} message */
    settle(message) {
      inFlight--;
      if (finished || !settleFn) return;
      const args = [
        vm.newNumber(message.id),
        message.isError ? vm.true : vm.false,
        vm.newString(message.text),
        vm.newString(message.code),
        vm.newString(message.message),
      ];
      try {
        const done = vm.callFunction(settleFn, vm.undefined, ...args);
        if (done.error) failed(engineError(done.error));
        else done.value.dispose();
      } catch (error) {
        crashed(error);
      } finally {
        for (const handle of args)
          if (handle.alive && handle !== vm.true && handle !== vm.false) handle.dispose();
      }
      pump();
    },
    stop() {
      pump();
    },
  };
}
