import { Code, ConnectError } from '@connectrpc/connect';

/** Node error codes that mean the peer closed or reset the connection or stream. */
const goneCodes = new Set([
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ERR_STREAM_DESTROYED',
  'ERR_STREAM_PREMATURE_CLOSE',
  'ERR_STREAM_WRITE_AFTER_END',
  'ERR_HTTP2_INVALID_STREAM',
  'ERR_HTTP2_STREAM_CANCEL',
  'ERR_HTTP2_STREAM_ERROR',
]);

const goneMarker = Symbol('dsh client gone');

/**
 * The error a handler sees when its client went away (closed the connection, reset
 * the stream, stopped reading until it was cut off): `canceled`, marked so that the
 * server logs it as nothing, since a client leaving is not a failure of the host.
 */
export function clientGone(cause?: unknown): ConnectError {
  const error = new ConnectError(
    'the client went away before the response was complete',
    Code.Canceled,
    undefined,
    undefined,
    cause,
  );
  Object.defineProperty(error, goneMarker, { value: true });
  return error;
}

/**
 * True when `error` (or anything in its `cause` chain) says the client went away:
 * `clientGone`, a reset or closed socket or stream, a write after the peer left.
 */
export function isClientGone(error: unknown): boolean {
  const seen = new Set<unknown>();
  for (let e = error; e instanceof Error && !seen.has(e); e = e.cause) {
    seen.add(e);
    if (goneMarker in e) return true;
    const code = (e as NodeJS.ErrnoException).code;
    if (typeof code === 'string' && goneCodes.has(code)) return true;
  }
  return false;
}
