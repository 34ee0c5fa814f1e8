import type { IncomingMessage, ServerResponse } from 'node:http';

/** How long, and how many bytes, a refused HTTP/1.1 body is read on after the answer. */
export interface LingerLimits {
  readonly ms: number;
  readonly bytes: number;
}

/** Two seconds or 64 MiB: enough for a client on loopback or a LAN to read the answer. */
export const defaultLinger: LingerLimits = { ms: 2_000, bytes: 64 * 1024 * 1024 };

/**
 * The body of an HTTP/1.1 request as an async iterable that, unlike the stream's own
 * iterator, leaves the request open when the reader stops early: connect stops reading a
 * body over the size limit, and destroying the request then would reset the connection
 * while the client still writes, so the client could see the reset instead of the
 * `resource_exhausted` answer; `lingerBeforeEnd` reads the rest before the answer ends.
 */
export function lingeringBody(req: IncomingMessage): AsyncIterable<Uint8Array> {
  return {
    [Symbol.asyncIterator]: () => ({
      next: () => readChunk(req),
      return: () => Promise.resolve({ done: true, value: undefined }),
    }),
  };
}

/**
 * Before the answer to `req` ends: a body the handler left unread is read on and dropped
 * (a lingering close) until the client has sent all of it, or for at most `limits`, so
 * a client still writing finishes and reads the answer instead of meeting a reset.
 * Node closes a `Connection: close` exchange as soon as the answer ends, so the answer
 * is held open meanwhile. Past the limits the connection closes once the answer is out.
 * A body already read whole costs nothing.
 */
export async function lingerBeforeEnd(
  req: IncomingMessage,
  res: ServerResponse,
  limits = defaultLinger,
): Promise<void> {
  if (req.complete || req.destroyed) return;
  const drained = await new Promise<boolean>((resolve) => {
    let bytes = 0;
    const done = (complete: boolean): void => {
      clearTimeout(timer);
      req.off('data', count);
      req.off('end', ended);
      req.off('close', closed);
      resolve(complete);
    };
    const count = (chunk: Buffer): void => {
      bytes += chunk.byteLength;
      if (bytes > limits.bytes) done(false);
    };
    const ended = (): void => done(true);
    const closed = (): void => done(req.complete);
    const timer = setTimeout(() => done(false), limits.ms);
    // A client that resets meanwhile is what a lingering close expects, not an error.
    req.on('error', () => {});
    req.on('data', count);
    req.once('end', ended);
    req.once('close', closed);
    req.resume();
  });
  if (!drained) res.once('finish', () => req.socket?.destroy());
}

/** The next chunk of `req`, waiting for one; done at its end; the stream's error thrown. */
function readChunk(req: IncomingMessage): Promise<IteratorResult<Uint8Array>> {
  return new Promise((resolve, reject) => {
    const attempt = (): void => {
      const chunk = req.read() as Buffer | null;
      if (chunk !== null) {
        settle();
        resolve({ done: false, value: chunk });
      } else if (req.readableEnded) {
        settle();
        resolve({ done: true, value: undefined });
      }
    };
    const ended = (): void => {
      settle();
      resolve({ done: true, value: undefined });
    };
    const failed = (error: Error): void => {
      settle();
      reject(error);
    };
    const settle = (): void => {
      req.off('readable', attempt);
      req.off('end', ended);
      req.off('error', failed);
      req.off('close', closed);
    };
    const closed = (): void => {
      settle();
      if (req.readableEnded) resolve({ done: true, value: undefined });
      else reject(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    };
    req.on('readable', attempt);
    req.once('end', ended);
    req.once('error', failed);
    req.once('close', closed);
    attempt();
  });
}
