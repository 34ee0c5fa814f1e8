import { constants, type Http2Server, type ServerHttp2Stream } from 'node:http2';

/** The timeouts of h2c sessions. */
export interface Http2Timeouts {
  /** A session must open its first stream within this. */
  readonly headersTimeoutMs: number;
  /** A stream's request (headers and body) must be complete within this. */
  readonly requestTimeoutMs: number;
  /** A session with no open stream is closed after this. */
  readonly idleTimeoutMs: number;
}

/**
 * Gives every h2c session of `server` the timeouts HTTP/1.1 gets from Node: a session
 * that opens no stream within `headersTimeoutMs` (a preface and nothing after it, a
 * stuck SETTINGS frame) or that has no open stream for `idleTimeoutMs` is closed with
 * GOAWAY (destroyed a second later if the peer does not read it), and a stream whose
 * request body is still incomplete after `requestTimeoutMs` is reset. Long-lived
 * response streams (Follow) are not limited: only the request side is timed.
 */
export function guardHttp2Sessions(server: Http2Server, timeouts: Http2Timeouts): void {
  server.on('session', (session) => {
    let open = 0;
    let timer: NodeJS.Timeout | undefined;
    const close = (): void => {
      if (session.closed || session.destroyed) return;
      session.close();
      setTimeout(() => session.destroy(), 1_000).unref();
    };
    const idleAfter = (ms: number): void => {
      clearTimeout(timer);
      timer = setTimeout(close, ms);
    };
    idleAfter(timeouts.headersTimeoutMs);
    session.on('error', () => {});
    session.once('close', () => clearTimeout(timer));
    session.on('stream', (stream: ServerHttp2Stream) => {
      open += 1;
      clearTimeout(timer);
      const requestTimer = setTimeout(() => {
        if (!(stream.endAfterHeaders || stream.readableEnded || stream.closed)) {
          stream.close(constants.NGHTTP2_CANCEL);
        }
      }, timeouts.requestTimeoutMs);
      stream.once('end', () => clearTimeout(requestTimer));
      stream.once('close', () => {
        clearTimeout(requestTimer);
        open -= 1;
        if (open === 0) idleAfter(timeouts.idleTimeoutMs);
      });
    });
  });
}
