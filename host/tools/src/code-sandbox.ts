import { WorkerPool } from './worker-pool.js';

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

/** Hard limits of one program. */
export interface SandboxLimits {
  /** Time limit for the whole program, synchronous parts included. */
  timeoutMs: number;
  /** Most tool calls a program may make; later calls reject. */
  maxCalls: number;
  /** The QuickJS heap of one program. */
  memoryBytes: number;
  /** The QuickJS stack of one program (deep recursion fails past it). */
  stackBytes: number;
  /** Characters of printed output and of the result that reach the host. */
  maxChars: number;
  /** Characters of one tools call's JSON arguments. */
  maxArgsChars: number;
}

/** Options of `runSandboxed`. */
export interface SandboxOptions extends SandboxLimits {
  /** Performs a `tools.<name>(args)` call; `argsJson` is the JSON of the program's argument. */
  call(name: string, argsJson: string): Promise<SandboxCallResult>;
  signal: AbortSignal;
}

/** The failure codes of a program. */
export type SandboxFailureCode = 'timeout' | 'program_error' | 'interrupted' | 'memory_limit';

/** How a sandboxed program ended. `chars` counts everything printed, shown or not. */
export type SandboxOutcome =
  | { ok: true; logs: string[]; chars: number; result?: string; resultChars?: number }
  | { ok: false; logs: string[]; chars: number; code: SandboxFailureCode; message: string };

/** How long a worker may overrun its deadline (or ignore an abort) before it is terminated. */
const overrunMs = 1000;

/** Most programs running at once on this host; nested `run_code` calls count too. */
export const maxRunningPrograms = 8;

/** Sandbox workers by program heap size (a worker's WebAssembly memory is fixed at start). */
const pools = new Map<number, WorkerPool>();

function poolFor(memoryBytes: number): WorkerPool {
  let pool = pools.get(memoryBytes);
  if (!pool) {
    pool = new WorkerPool(new URL('./code-sandbox-worker.js', import.meta.url), {
      // The worker's own heap holds only the engine's glue and strings on their way
      // through; the program's heap lives in WebAssembly memory bounded by `memoryBytes`.
      resourceLimits: { maxOldGenerationSizeMb: 96, maxYoungGenerationSizeMb: 16, stackSizeMb: 8 },
      workerData: { memoryBytes },
      maxWorkers: maxRunningPrograms,
      // A cold worker costs ~0.2 s (thread, WebAssembly); keep a warm one between turns.
      idleMs: 300_000,
      whenFull: 'fail',
      fullMessage: `too many run_code programs are running at once (at most ${maxRunningPrograms}); wait for one to finish, then try again`,
    });
    pools.set(memoryBytes, pool);
  }
  return pool;
}

/**
 * Runs JavaScript (top-level `await` and `return` allowed) in a QuickJS runtime on a
 * worker thread, so no part of the program runs on the host's event loop. The runtime
 * has hard memory and stack limits and an interrupt handler for the deadline and for
 * `signal`; a worker that does not answer within a second past either is terminated.
 * Only strings and numbers cross between the program and the host.
 */
export async function runSandboxed(code: string, options: SandboxOptions): Promise<SandboxOutcome> {
  const logs: string[] = [];
  let chars = 0;
  const messages: Record<SandboxFailureCode, string> = {
    timeout: `the program ran past its ${options.timeoutMs} ms time limit`,
    interrupted: 'the program was interrupted',
    memory_limit: `the program ran out of its ${options.memoryBytes / 2 ** 20} MB memory limit`,
    program_error: 'the program failed',
  };
  const failure = (code: SandboxFailureCode, message = messages[code]): SandboxOutcome => ({
    ok: false,
    logs,
    chars,
    code,
    message,
  });
  if (options.signal.aborted) return failure('interrupted');
  const pool = poolFor(options.memoryBytes);
  const worker = await pool.acquire(options.signal);
  if (options.signal.aborted) {
    pool.giveBack(worker);
    return failure('interrupted');
  }
  return new Promise<SandboxOutcome>((resolve) => {
    const abort = new SharedArrayBuffer(4);
    let settled = false;
    let overrun: NodeJS.Timeout | undefined;
    const finish = (outcome: SandboxOutcome, healthy: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      clearTimeout(overrun);
      options.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('exit', onExit);
      worker.off('error', onError);
      if (healthy) pool.release(worker);
      else pool.discard(worker);
      resolve(outcome);
    };
    const stop = (code: 'timeout' | 'interrupted') => {
      Atomics.store(new Int32Array(abort), 0, stopFlags[code]);
      worker.postMessage({ kind: 'abort' });
      overrun ??= setTimeout(() => finish(failure(code), false), overrunMs);
    };
    const onAbort = () => stop('interrupted');
    let lastError = '';
    const onError = (error: Error) => (lastError = `${error.name}: ${error.message}`);
    const onExit = () =>
      finish(
        failure(
          'program_error',
          `the sandbox stopped unexpectedly${lastError === '' ? '' : ` (${lastError})`}`,
        ),
        false,
      );
    const onMessage = (message: WorkerMessage) => {
      if (settled) return;
      switch (message.kind) {
        case 'log':
          logs.push(message.line);
          chars += message.length + (logs.length > 1 ? 1 : 0);
          return;
        case 'call':
          void options
            .call(message.name, message.argsJson)
            .catch((error: unknown): SandboxCallResult => ({
              text: String(error),
              isError: true,
              code: 'internal',
            }))
            .then((result) => {
              if (settled) return;
              worker.postMessage({
                kind: 'settle',
                id: message.id,
                isError: result.isError,
                text: result.text,
                code: result.code ?? '',
                message: result.message ?? result.text,
              });
            });
          return;
        case 'done':
          return finish(outcomeOf(message.outcome), true);
        case 'ready':
          return;
        default: {
          const unknown: never = message;
          return finish(
            failure('program_error', `unknown sandbox message ${String(unknown)}`),
            false,
          );
        }
      }
    };
    function outcomeOf(outcome: WorkerOutcome): SandboxOutcome {
      if (outcome.ok) {
        return outcome.result === undefined
          ? { ok: true, logs, chars }
          : { ok: true, logs, chars, result: outcome.result, resultChars: outcome.length };
      }
      return failure(outcome.code, outcome.message ?? messages[outcome.code]);
    }
    const deadline = setTimeout(() => stop('timeout'), options.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.once('exit', onExit);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage({
      kind: 'run',
      code,
      abort,
      timeoutMs: options.timeoutMs,
      maxCalls: options.maxCalls,
      stackBytes: options.stackBytes,
      maxChars: options.maxChars,
      maxArgsChars: options.maxArgsChars,
    });
  });
}

/** The values of the shared stop flag the worker's interrupt handler reads. */
const stopFlags = { interrupted: 1, timeout: 2 } as const;

/** What the worker reports when a program ends. */
type WorkerOutcome =
  | { ok: true; result?: string; length?: number }
  | { ok?: false; code: SandboxFailureCode; message?: string };

type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'log'; line: string; length: number }
  | { kind: 'call'; id: number; name: string; argsJson: string }
  | { kind: 'done'; outcome: WorkerOutcome };
