import { clientGone } from './client-gone.js';
import type { NodeResponse } from './write-node-response.js';

/** The lifetime of a call the host answers itself (`serveDirectStream`, `serveDirectUnary`). */
export interface DirectCall {
  /** Aborts when the client leaves (`clientGone`) or the host shuts down. */
  readonly signal: AbortSignal;
  /** True once the response closed: nothing more can be written to it. */
  closed(): boolean;
  /** Stops listening to the response and the shutdown; call it when the call ends. */
  release(): void;
}

/**
 * Watches `res` and the host's `shutdown` for a direct call. A write that fails after
 * the client left emits 'error' on the response; the write itself reports it, so the
 * event is taken here and dropped.
 */
export function startDirectCall(res: NodeResponse, shutdown: AbortSignal): DirectCall {
  const controller = new AbortController();
  let closed = false;
  const onClose = (): void => {
    closed = true;
    controller.abort(clientGone());
  };
  const onShutdown = (): void => controller.abort(shutdown.reason);
  res.once('close', onClose);
  if (shutdown.aborted) onShutdown();
  else shutdown.addEventListener('abort', onShutdown, { once: true });
  res.on('error', () => {});
  return {
    signal: controller.signal,
    closed: () => closed,
    release() {
      shutdown.removeEventListener('abort', onShutdown);
      res.off('close', onClose);
    },
  };
}
