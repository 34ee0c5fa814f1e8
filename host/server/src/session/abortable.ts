import { Code, ConnectError } from '@connectrpc/connect';

/**
 * Resolves like `promise` unless `signal` aborts first, then rejects with `canceled`.
 * Handlers await through this so a disconnected client is noticed at every await
 * (connect-es issue #1217: an async generator handler is otherwise never told).
 */
export function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(canceled(signal));
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(canceled(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** A wake-up signal for a loop that waits for new work, with an idle timeout. */
export interface Waker {
  /** Wakes the pending `wait`, or makes the next one return at once. */
  wake(): void;
  /** True when woken, false after `timeoutMs` of idleness; rejects when `signal` aborts. */
  wait(timeoutMs: number): Promise<boolean>;
}

/** Creates a `Waker` whose waits race `signal`. */
export function createWaker(signal: AbortSignal): Waker {
  let pending = false;
  let resolveWait: ((woken: boolean) => void) | undefined;
  return {
    wake() {
      if (resolveWait) {
        const resolve = resolveWait;
        resolveWait = undefined;
        resolve(true);
      } else {
        pending = true;
      }
    },
    wait(timeoutMs) {
      if (pending) {
        pending = false;
        return Promise.resolve(true);
      }
      let timer: NodeJS.Timeout | undefined;
      const woken = new Promise<boolean>((resolve) => {
        resolveWait = resolve;
        timer = setTimeout(() => {
          resolveWait = undefined;
          resolve(false);
        }, timeoutMs);
      });
      return abortable(woken, signal).finally(() => {
        clearTimeout(timer);
        resolveWait = undefined;
      });
    },
  };
}

/** The `canceled` error a handler ends with when `signal` aborted (the client went away). */
export function canceled(signal: AbortSignal): ConnectError {
  return ConnectError.from(signal.reason ?? 'the client went away', Code.Canceled);
}
