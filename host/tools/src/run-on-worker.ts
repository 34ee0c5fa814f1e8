import { errorCodes, interruptedMessage, type Hunk } from '@dsh/card-models/contract';
import { ToolFailure } from './tool-failure.js';
import { WorkerPool } from './worker-pool.js';

/** Lists the files under `root` matching `pattern` (see `search-files.js`). */
export interface GlobJob {
  kind: 'glob';
  root: string;
  pattern: string;
}

/** Searches the files under (or the file) `root` for a regular expression. */
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

/** Turns a fetched HTML page into text. */
export interface HtmlJob {
  kind: 'html';
  html: string;
}

/** Diffs two texts into contextual hunks, giving up after `giveUpMs`. */
export interface HunksJob {
  kind: 'hunks';
  oldText: string;
  newText: string;
  context: number;
  giveUpMs: number;
}

/** What each job gives back. */
export interface JobResults {
  glob: { paths: string[] };
  grep: {
    files: { path: string; matches: { lineNumber: number; line: string }[] }[];
    total: number;
  };
  html: { text: string };
  hunks: { hunks: Hunk[] | undefined };
}

/** Options of `runOnWorker`. */
export interface WorkerJobOptions {
  timeoutMs: number;
  signal: AbortSignal;
  /** Names the work in failures, for example `grep` or `turning the page into text`. */
  what: string;
  /** How to make the work finish sooner, for the timeout message. */
  hint: string;
  /** The failure code when the work throws or its worker dies. */
  failureCode: string;
}

/** Most jobs running at once; more wait for a worker. */
const maxJobs = 4;

const pool = new WorkerPool(new URL('./tool-worker.js', import.meta.url), {
  resourceLimits: { maxOldGenerationSizeMb: 512, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 },
  maxWorkers: maxJobs,
  whenFull: 'wait',
});

/**
 * Runs a job on a tool worker thread, never on the host's event loop. Past `timeoutMs`, or
 * when `signal` aborts, the worker is terminated (a running regular expression or diff
 * cannot be interrupted any other way) and the job fails with `timeout` or `interrupted`;
 * work that throws, or a worker that dies (out of memory), fails with `failureCode`.
 */
export async function runOnWorker<J extends GlobJob | GrepJob | HtmlJob | HunksJob>(
  job: J,
  options: WorkerJobOptions,
): Promise<JobResults[J['kind']]> {
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
    const failed = (message: string) =>
      new ToolFailure(options.failureCode, `${options.what} failed: ${message}`);
    const onMessage = (message: { kind: string; result?: unknown; message?: string }) => {
      if (message.kind === 'done') {
        finish(true, () => resolve(message.result as JobResults[J['kind']]));
      } else if (message.kind === 'failed') {
        finish(true, () => reject(failed(message.message ?? 'unknown error')));
      }
    };
    let lastError = '';
    const onError = (error: Error) => (lastError = error.message);
    const onExit = () =>
      finish(false, () =>
        reject(failed(`its worker stopped${lastError === '' ? '' : ` (${lastError})`}`)),
      );
    const onAbort = () => finish(false, () => reject(interrupted()));
    const timer = setTimeout(() => {
      const message = `${options.what} ran past its ${options.timeoutMs} ms time limit and was stopped; ${options.hint}`;
      finish(false, () => reject(new ToolFailure(errorCodes.timeout, message)));
    }, options.timeoutMs);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.once('exit', onExit);
    options.signal.addEventListener('abort', onAbort, { once: true });
    worker.postMessage(job);
  });
}
