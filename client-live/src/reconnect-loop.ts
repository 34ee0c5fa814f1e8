import { Code, ConnectError } from '@connectrpc/connect';
import { backoffDelay, type BackoffOptions } from '@dsh/backoff';
import { createPause } from './backoff.js';
import { describeError, isRetryable, type ConnectionState } from './connection-state.js';

/** What one connection attempt gets from the loop. */
export interface AttemptContext {
  /** Aborts when the owner closes, the idle watchdog fires or a resync is requested. */
  readonly signal: AbortSignal;
  /** Call on every response or frame: resets the idle watchdog. */
  touch(): void;
  /** Call once the stream is open (its opening frame arrived): the state becomes `live`. */
  live(): void;
}

/** Options of `startReconnectLoop`. */
export interface ReconnectLoopOptions {
  readonly backoff: BackoffOptions;
  /** Silence (no response, frame or heartbeat) after which the attempt is dropped and retried. */
  readonly idleTimeoutMs: number;
  /** One connection: resolves or throws when it ends; the loop then reconnects. */
  readonly attempt: (context: AttemptContext) => Promise<void>;
  readonly onConnection: (state: ConnectionState) => void;
}

/** A running reconnect loop. */
export interface ReconnectLoop {
  /** Drops the current attempt (if any) and connects again now; also leaves `offline`. */
  retry(): void;
  /** Stops for good: the current attempt is aborted and no other starts. */
  close(): void;
}

/**
 * Runs `attempt` until closed: after it ends, waits with exponential backoff (reset by
 * every successful `live()`) and runs it again. A failure that a retry cannot fix (see
 * `isRetryable`) parks the loop `offline` until `retry()`. Silence longer than
 * `idleTimeoutMs` counts as a failure, so a half-open connection is noticed.
 */
export function startReconnectLoop(options: ReconnectLoopOptions): ReconnectLoop {
  const closed = new AbortController();
  const pause = createPause();
  let current: AbortController | undefined;
  let idleTimer: ReturnType<typeof setTimeout> | undefined;
  let idleFired = false;

  const stopIdle = (): void => {
    if (idleTimer !== undefined) clearTimeout(idleTimer);
    idleTimer = undefined;
  };
  const touch = (controller: AbortController): void => {
    stopIdle();
    idleTimer = setTimeout(() => {
      idleFired = true;
      controller.abort();
    }, options.idleTimeoutMs);
  };

  const run = async (): Promise<void> => {
    let failures = 0;
    while (!closed.signal.aborted) {
      const controller = new AbortController();
      current = controller;
      idleFired = false;
      touch(controller);
      let failure: unknown;
      try {
        await options.attempt({
          signal: controller.signal,
          touch: () => touch(controller),
          live: () => {
            failures = 0;
            options.onConnection({ kind: 'live' });
          },
        });
        failure = new ConnectError('the host ended the stream', Code.Unavailable);
      } catch (error) {
        failure = error;
      } finally {
        stopIdle();
        current = undefined;
      }
      if (closed.signal.aborted) return;
      if (idleFired) {
        const seconds = Math.round(options.idleTimeoutMs / 1000);
        failure = new ConnectError(`no word from the host for ${seconds} s`, Code.Unavailable);
      } else if (controller.signal.aborted) {
        // retry() dropped this attempt on purpose: connect again at once.
        continue;
      }
      if (!isRetryable(failure)) {
        options.onConnection({ kind: 'offline', error: describeError(failure) });
        await pause.wait(undefined, closed.signal);
        failures = 0;
        continue;
      }
      failures += 1;
      const delay = backoffDelay(failures, options.backoff);
      options.onConnection({
        kind: 'reconnecting',
        attempt: failures,
        error: describeError(failure),
        retryInMs: delay,
      });
      await pause.wait(delay, closed.signal);
    }
  };
  void run();

  return {
    retry() {
      current?.abort();
      pause.wake();
    },
    close() {
      closed.abort();
      current?.abort();
      stopIdle();
      pause.wake();
    },
  };
}
