import { AsyncLocalStorage } from 'node:async_hooks';

/** What ends one client when it fails. */
export type FailClient = (error: unknown) => void;

/**
 * Keeps the failure of one terminal client to that client in a process serving many (the
 * SSH server). reblessed ends the whole process on any uncaught exception unless another
 * listener exists; this is that listener, and it routes each exception to the client whose
 * work threw it (the async context it was started in), so only that client ends.
 */
export interface ClientIsolation {
  /** Runs `fn` (and every callback, timer and promise it starts) as work of the client `fail` ends. */
  run<T>(fail: FailClient, fn: () => T): T;
  /** Runs `fn` for the client; a synchronous throw fails that client instead of escaping. */
  guard(fail: FailClient, fn: () => void): void;
  /** Removes the process listener. */
  dispose(): void;
}

/**
 * Installs the process's `uncaughtException` listener (before any screen exists, so
 * reblessed's own handler stands aside). An exception outside every client's work goes
 * to `unowned`, which should end the process: its state is unknown.
 */
export function isolateClients(unowned: (error: unknown) => void): ClientIsolation {
  const owner = new AsyncLocalStorage<FailClient>();
  const onUncaught = (error: unknown) => {
    const fail = owner.getStore();
    if (fail === undefined) unowned(error);
    else fail(error);
  };
  process.on('uncaughtException', onUncaught);
  return {
    run: (fail, fn) => owner.run(fail, fn),
    guard(fail, fn) {
      try {
        owner.run(fail, fn);
      } catch (error) {
        fail(error);
      }
    },
    dispose: () => void process.off('uncaughtException', onUncaught),
  };
}
