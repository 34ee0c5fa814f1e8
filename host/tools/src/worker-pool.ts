import { Worker, type ResourceLimits } from 'node:worker_threads';
import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { ToolFailure } from './tool-failure.js';

/** Options of a `WorkerPool`. */
export interface WorkerPoolOptions {
  /** Hard limits of each worker's own heap and stack. */
  readonly resourceLimits: ResourceLimits;
  /** Passed to every worker as `workerData`. */
  readonly workerData?: unknown;
  /** Most workers alive at once. */
  readonly maxWorkers: number;
  /** What `acquire` does when `maxWorkers` are busy: wait for one, or fail at once. */
  readonly whenFull: 'wait' | 'fail';
  /** Failure message when full and `whenFull` is `fail`. */
  readonly fullMessage?: string;
  /** An idle worker is ended after this long unused. */
  readonly idleMs?: number;
}

interface Waiter {
  resolve(worker: Worker): void;
  reject(error: unknown): void;
}

/**
 * Worker threads of one script, started on demand and reused: a worker posts
 * `{kind: 'ready'}` when it can take a job, `release` gives it back once it says so again,
 * and `discard` terminates one that misbehaved. Idle workers do not keep the process alive.
 */
export class WorkerPool {
  private readonly idle: Worker[] = [];
  private readonly waiters: Waiter[] = [];
  /** Workers given back that have not reported ready yet (a few milliseconds of cleanup). */
  private releasing = 0;
  private live = 0;

  constructor(
    private readonly script: URL,
    private readonly options: WorkerPoolOptions,
  ) {}

  /** A ready worker, started if none is idle; a wait for one ends when `signal` aborts. */
  acquire(signal?: AbortSignal): Promise<Worker> {
    const worker = this.idle.pop();
    if (worker) {
      clearIdleTimer(worker);
      worker.ref();
      return Promise.resolve(worker);
    }
    // A worker given back is ready within moments: wait for it rather than start another.
    if (this.releasing > this.waiters.length) return this.wait(signal);
    if (this.live < this.options.maxWorkers) return this.start();
    if (this.options.whenFull === 'wait') return this.wait(signal);
    return Promise.reject(
      new ToolFailure('busy', this.options.fullMessage ?? 'too many jobs are running'),
    );
  }

  /** Takes a worker back after a job; it is reused once it reports ready. */
  release(worker: Worker): void {
    this.releasing++;
    const onReady = (message: { kind?: unknown }) => {
      if (message?.kind !== 'ready') return;
      settle();
      this.park(worker);
    };
    const settle = () => {
      this.releasing--;
      worker.off('message', onReady);
      worker.off('exit', settle);
    };
    worker.on('message', onReady);
    worker.once('exit', settle);
  }

  /** Takes back a worker that was given no job: it is ready as it is. */
  giveBack(worker: Worker): void {
    this.park(worker);
  }

  /** Ends a worker that cannot be trusted with another job. */
  discard(worker: Worker): void {
    void worker.terminate();
  }

  private wait(signal: AbortSignal | undefined): Promise<Worker> {
    return new Promise<Worker>((resolve, reject) => {
      const waiter: Waiter = {
        resolve: (worker) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(worker);
        },
        reject,
      };
      const onAbort = () => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        reject(new ToolFailure(errorCodes.interrupted, interruptedMessage));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  private start(): Promise<Worker> {
    this.live++;
    const worker = new Worker(this.script, {
      resourceLimits: this.options.resourceLimits,
      workerData: this.options.workerData,
    });
    // A worker's uncaught error must never become an uncaught 'error' event on the host;
    // jobs watch 'exit' (which always follows) to learn that their worker is gone.
    worker.on('error', () => undefined);
    worker.once('exit', () => {
      this.live--;
      clearIdleTimer(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const waiter = this.waiters.shift();
      if (waiter) this.start().then(waiter.resolve, waiter.reject);
    });
    return new Promise<Worker>((resolve, reject) => {
      const onMessage = (message: { kind?: unknown }) => {
        if (message?.kind !== 'ready') return;
        cleanup();
        resolve(worker);
      };
      const onFailure = (error: unknown) => {
        cleanup();
        reject(new ToolFailure('internal', `a worker thread failed to start: ${String(error)}`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('error', onFailure);
        worker.off('exit', onFailure);
      };
      worker.on('message', onMessage);
      worker.once('error', onFailure);
      worker.once('exit', onFailure);
    });
  }

  private park(worker: Worker): void {
    const waiter = this.waiters.shift();
    if (waiter) {
      worker.ref();
      return waiter.resolve(worker);
    }
    worker.unref();
    this.idle.push(worker);
    const idleMs = this.options.idleMs ?? 30_000;
    idleTimers.set(worker, setTimeout(() => void worker.terminate(), idleMs).unref());
  }
}

const idleTimers = new WeakMap<Worker, NodeJS.Timeout>();

function clearIdleTimer(worker: Worker): void {
  clearTimeout(idleTimers.get(worker));
  idleTimers.delete(worker);
}
