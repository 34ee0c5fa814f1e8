import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { ToolFailure } from './tool-failure.js';
import { WorkerPool } from './worker-pool.js';

/** A grep job for the search worker (see `search-worker.js`). */
export interface GrepJob {
  kind: 'grep';
  root: string;
  isDirectory: boolean;
  glob: string | undefined;
  pattern: string;
  flags: string;
  limit: number;
  maxFileBytes: number;
  maxLineChars: number;
}

/** A glob job for the search worker. */
export interface GlobJob {
  kind: 'glob';
  root: string;
  pattern: string;
}

/** What a grep job finds: listed matches by file (absolute paths) and the count of all. */
export interface GrepFound {
  files: { path: string; matches: { lineNumber: number; line: string }[] }[];
  total: number;
}

/** Most searches running at once; more wait for a worker. */
const maxSearches = 4;

const pool = new WorkerPool(new URL('./search-worker.js', import.meta.url), {
  resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  maxWorkers: maxSearches,
  whenFull: 'wait',
});

/**
 * Runs a search on a worker thread. Past `timeoutMs`, or when `signal` aborts, the worker
 * is terminated (a regular expression cannot be interrupted any other way) and the call
 * fails with `timeout` or `interrupted`; a worker that dies (out of memory) fails it too.
 */
export function runSearch(job: GrepJob, options: SearchOptions): Promise<GrepFound>;
export function runSearch(job: GlobJob, options: SearchOptions): Promise<{ paths: string[] }>;
export async function runSearch(job: GrepJob | GlobJob, options: SearchOptions): Promise<unknown> {
  const interrupted = () => new ToolFailure(errorCodes.interrupted, interruptedMessage);
  if (options.signal.aborted) throw interrupted();
  const worker = await pool.acquire(options.signal);
  if (options.signal.aborted) {
    pool.giveBack(worker);
    throw interrupted();
  }
  return new Promise((resolve, reject) => {
    let done = false;
    const finish = (healthy: boolean, settle: () => void) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (healthy) pool.release(worker);
      else pool.discard(worker);
      settle();
    };
    const onMessage = (message: { kind: string; result?: unknown; message?: string }) => {
      if (message.kind === 'done') finish(true, () => resolve(message.result));
      else if (message.kind === 'failed') {
        finish(true, () =>
          reject(new ToolFailure('search_failed', `${job.kind} failed: ${message.message}`)),
        );
      }
    };
    let lastError = '';
    const onError = (error: Error) => (lastError = error.message);
    const onExit = () =>
      finish(false, () =>
        reject(
          new ToolFailure(
            'search_failed',
            `${job.kind} stopped unexpectedly${lastError === '' ? '' : ` (${lastError})`}; search a narrower path`,
          ),
        ),
      );
    const onAbort = () => finish(false, () => reject(interrupted()));
    const timer = setTimeout(
      () =>
        finish(false, () =>
          reject(
            new ToolFailure(
              errorCodes.timeout,
              `${job.kind} ran past its ${options.timeoutMs} ms time limit and was stopped; ${options.hint}`,
            ),
          ),
        ),
      options.timeoutMs,
    );
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.once('exit', onExit);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(job);
  });
}

/** Options of `runSearch`. */
export interface SearchOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** How to make the search finish sooner, for the timeout message. */
  hint: string;
}
