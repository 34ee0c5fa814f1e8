import type { Server as HttpServer } from 'node:http';
import type { Http2Server } from 'node:http2';
import { createServer, type Server, type Socket } from 'node:net';

/** The HTTP/2 connection preface every h2c ("prior knowledge") client sends first. */
const h2Preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** Options of `createOnePortListener`. */
export interface OnePortOptions {
  /** How long a new connection may take to send enough bytes to tell its protocol. */
  readonly peekTimeoutMs: number;
  /** Decides whether a new connection is admitted; a refused socket is already closed. */
  readonly admit?: (socket: Socket) => boolean;
}

/**
 * A TCP server that serves HTTP/1.1 and HTTP/2 without TLS (h2c) on one port: it peeks
 * at the first bytes of each connection and hands the socket to `http2` when they are
 * the HTTP/2 preface, else to `http1`. Node's `allowHTTP1` works only with TLS, which is
 * why the split happens here. The peek reads at most the 24 preface bytes and gives up
 * (closing the socket) after `peekTimeoutMs`: a socket that sends nothing, or part of
 * the preface and then nothing, is closed.
 */
export function createOnePortListener(
  http1: HttpServer,
  http2: Http2Server,
  options: OnePortOptions,
): Server {
  return createServer((socket) => {
    socket.on('error', () => {});
    if (options.admit !== undefined && !options.admit(socket)) return;
    peek(socket, options.peekTimeoutMs, (isH2) => {
      if (isH2) http2.emit('connection', socket);
      else http1.emit('connection', socket);
    });
  });
}

function peek(socket: Socket, timeoutMs: number, decide: (isH2: boolean) => void): void {
  let seen = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), timeoutMs);
  const cleanup = (): void => {
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('close', onClose);
  };
  const onClose = (): void => cleanup();
  const onData = (chunk: Buffer): void => {
    seen = Buffer.concat([seen, chunk]);
    const n = Math.min(seen.length, h2Preface.length);
    const matches = seen.subarray(0, n).equals(h2Preface.subarray(0, n));
    if (matches && n < h2Preface.length) return;
    cleanup();
    socket.pause();
    socket.unshift(seen);
    decide(matches);
    // The servers attach their own readers in 'connection'; let the buffered bytes flow.
    process.nextTick(() => socket.resume());
  };
  socket.on('data', onData);
  socket.on('close', onClose);
}
