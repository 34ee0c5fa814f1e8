import { Worker } from 'node:worker_threads';

/** A message of `rg --json` as the worker parsed it. */
export type WorkerMessage =
  | {
      type: 'match';
      path: string;
      offset: number;
      line: Uint8Array;
      ranges: { start: number; end: number }[];
    }
  | { type: 'end'; path: string };

/** What the worker reports about one run. */
export type RunEvent =
  | { kind: 'spawned' }
  | { kind: 'failed'; code: string; message: string }
  | { kind: 'messages'; messages: WorkerMessage[] }
  | {
      kind: 'exit';
      code: number | null;
      signal: string | null;
      stderr: string;
      /** True when the worker killed rg past the run's output cap. */
      capped: boolean;
    }
  /** The worker thread itself ended (it crashed or ran out of memory). */
  | { kind: 'lost'; reason: string };

/** One rg run on the worker: its events, and the controls the host has over it. */
export interface ThreadRun {
  /** Asks for the batch after the ones already posted (the worker keeps one in flight). */
  more(): void;
  kill(): void;
}

/** What a run is started with. */
export interface ThreadJob {
  readonly program: string;
  readonly args: readonly string[];
  readonly stdin: { readonly path: string; readonly start: number } | undefined;
  readonly maxOutputBytes: number;
}

const workerUrl = new URL('./ripgrep-worker.js', import.meta.url);
/**
 * The worker holds a few chunks of rg output per run, never a whole result; the ceiling
 * leaves room to parse one journal line of `maxEventLineBytes` (16 MiB) as rg escapes it.
 * A larger line (stored past that limit) can exhaust it: that search fails `unavailable`.
 */
const resourceLimits = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 16 };

let worker: Worker | undefined;
let nextId = 1;
const listeners = new Map<number, (event: RunEvent) => void>();

/**
 * Starts `job` on the host's one ripgrep worker thread (started on first use, kept while
 * runs are live and unreferenced while idle, so it never keeps the process alive); a
 * worker that ends ends its runs with `lost` and the next run starts a new one.
 */
export function startOnThread(job: ThreadJob, onEvent: (event: RunEvent) => void): ThreadRun {
  const thread = (worker ??= startWorker());
  const id = nextId++;
  listeners.set(id, onEvent);
  if (listeners.size === 1) thread.ref();
  thread.postMessage({ kind: 'run', id, ...job, args: [...job.args] });
  return {
    more: () => thread.postMessage({ kind: 'more', id }),
    kill: () => thread.postMessage({ kind: 'kill', id }),
  };
}

/** Runs started and not yet ended (each one rg process): zero whenever no search runs. */
export function runningRipgrep(): number {
  return listeners.size;
}

function startWorker(): Worker {
  const thread = new Worker(workerUrl, { resourceLimits });
  thread.unref();
  let reason = 'the search worker thread stopped';
  // An uncaught error in the worker must never become one on the host: 'exit' follows.
  thread.on('error', (error) => (reason = `the search worker thread failed: ${error.message}`));
  thread.on('message', (message: { id: number; kind: RunEvent['kind'] } & RunEvent) => {
    const listener = listeners.get(message.id);
    if (message.kind === 'exit' || message.kind === 'failed') finish(message.id, thread);
    listener?.(message);
  });
  thread.once('exit', () => {
    if (worker === thread) worker = undefined;
    const orphans = [...listeners.values()];
    listeners.clear();
    for (const listener of orphans) listener({ kind: 'lost', reason });
  });
  return thread;
}

function finish(id: number, thread: Worker): void {
  listeners.delete(id);
  if (listeners.size === 0) thread.unref();
}
