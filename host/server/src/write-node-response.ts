import type { ServerResponse } from 'node:http';
import { constants, type Http2ServerResponse } from 'node:http2';
import type { UniversalServerResponse } from '@connectrpc/connect/protocol';
import { clientGone } from './client-gone.js';
import type { LoopSlices } from './loop-slices.js';

/** A Node response of either HTTP version. */
export type NodeResponse = ServerResponse | Http2ServerResponse;

/** The error name a write ends with when its client stopped reading for too long. */
export const stalledClientName = 'StalledClient';

/** True when `error`, or an error in its `cause` chain, is a write's `StalledClient`. */
export function isStalledClient(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 8; e = e.cause, depth += 1) {
    if (e.name === stalledClientName) return true;
  }
  return false;
}

/**
 * Writes a Connect universal response to a Node response, waiting for `drain` between
 * chunks (backpressure). Unlike `universalResponseToNodeResponse` of connect-node, a
 * write blocked on a client that stopped reading fails with `clientGone` as soon as the
 * response closes (socket destroyed, stream reset), so the handler's generator is
 * always told and releases what it holds; a blocked write would otherwise wait forever.
 * A write blocked for `stallTimeoutMs` closes the response itself (`closeStalled`).
 * Between chunks that flush at once it pauses when `slices` says the loop's slice is used
 * up, so a stream never holds the event loop for more than a slice.
 */
export async function writeNodeResponse(
  response: UniversalServerResponse,
  res: NodeResponse,
  stallTimeoutMs: number,
  slices: LoopSlices,
  /** Runs after the last chunk, before the response ends (`lingerBeforeEnd`). */
  beforeEnd?: () => Promise<void>,
): Promise<void> {
  const body = response.body?.[Symbol.asyncIterator]();
  let closed = false;
  const onClose = (): void => void (closed = true);
  res.once('close', onClose);
  let writing = false;
  try {
    if (body !== undefined) {
      let chunk = await body.next();
      if (closed) throw clientGone();
      // Headers go out after the first chunk, so the handler could still set them.
      res.writeHead(response.status, nodeHeaders(response.header));
      for (; chunk.done !== true; chunk = await body.next()) {
        writing = true;
        const written = writeChunk(res, chunk.value, () => closed, stallTimeoutMs);
        if (written !== undefined) await written;
        writing = false;
        const paused = slices.pause();
        if (paused !== undefined) await paused;
      }
    }
    if (closed) throw clientGone();
    if (!res.headersSent) res.writeHead(response.status, nodeHeaders(response.header));
    if (response.trailer) res.addTrailers(nodeHeaders(response.trailer));
    await beforeEnd?.();
    res.end();
  } catch (error) {
    // Tell the handler that its output can no longer be delivered.
    if (writing) body?.throw?.(error).catch(() => {});
    throw error;
  } finally {
    res.off('close', onClose);
    body?.return?.().catch(() => {});
  }
}

/**
 * Closes a response whose client stopped reading: an HTTP/2 stream is reset with
 * ENHANCE_YOUR_CALM (connect clients see `resource_exhausted`), an HTTP/1.1 response
 * destroys its connection (the client sees the connection drop). Either way the client
 * reconnects, and a follower resumes from its last seq.
 */
export function closeStalled(res: NodeResponse): void {
  if ('stream' in res) res.stream.close(constants.NGHTTP2_ENHANCE_YOUR_CALM);
  else res.destroy();
}

/**
 * Writes one chunk: undefined when the response took it at once (no promise, no
 * listener: the common case of a reader that keeps up), else a promise of its `drain`.
 * A failure of a write that was taken at once closes the response, which the next write
 * sees (`isClosed`). A write blocked for `stallTimeoutMs` closes the response
 * (`closeStalled`) and rejects with a `StalledClient` error.
 */
export function writeChunk(
  res: NodeResponse,
  data: Uint8Array,
  isClosed: () => boolean,
  stallTimeoutMs: number,
): Promise<void> | undefined {
  if (isClosed()) return Promise.reject(clientGone());
  let failed: ((error: Error) => void) | undefined;
  // The callback reports a failed write on a stream that will emit neither drain nor error.
  const flushed = (res as ServerResponse).write(data, (error) => {
    if (error) failed?.(error);
  });
  if (flushed) return undefined;
  return new Promise<void>((resolve, reject) => {
    const stall: { timer?: NodeJS.Timeout } = {};
    const settle = (error?: unknown): void => {
      clearTimeout(stall.timer);
      failed = undefined;
      res.off('drain', onDrain);
      res.off('close', onClose);
      res.off('error', onError);
      if (error === undefined) resolve();
      else reject(clientGone(error));
    };
    const onDrain = (): void => settle();
    const onClose = (): void => settle(new Error('the response closed during a write'));
    const onError = (error: Error): void => settle(error);
    failed = onError;
    res.once('drain', onDrain);
    res.once('close', onClose);
    res.once('error', onError);
    stall.timer = setTimeout(() => {
      const error = new Error(`the client read nothing for ${stallTimeoutMs} ms`);
      error.name = stalledClientName;
      closeStalled(res);
      settle(error);
    }, stallTimeoutMs);
  });
}

function nodeHeaders(headers: Headers | undefined): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (headers === undefined) return out;
  headers.forEach((value, key) => {
    out[key] = key === 'set-cookie' ? headers.getSetCookie() : value;
  });
  return out;
}
