import type { Server as HttpServer } from 'node:http';
import type { Http2Server } from 'node:http2';
import { createServer, type Server, type Socket } from 'node:net';

/** The HTTP/2 connection preface every h2c ("prior knowledge") client sends first. */
const h2Preface = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** How long a new connection may stay silent before its first bytes are seen. */
const peekTimeoutMs = 30_000;

/**
 * A TCP server that serves HTTP/1.1 and HTTP/2 without TLS (h2c) on one port: it peeks
 * at the first bytes of each connection and hands the socket to `http2` when they are
 * the HTTP/2 preface, else to `http1`. Node's `allowHTTP1` works only with TLS, which is
 * why the split happens here.
 */
export function createOnePortListener(http1: HttpServer, http2: Http2Server): Server {
  return createServer((socket) => {
    peek(socket, (isH2) => {
      if (isH2) http2.emit('connection', socket);
      else http1.emit('connection', socket);
    });
  });
}

function peek(socket: Socket, decide: (isH2: boolean) => void): void {
  let seen = Buffer.alloc(0);
  const timer = setTimeout(() => socket.destroy(), peekTimeoutMs);
  const cleanup = (): void => {
    clearTimeout(timer);
    socket.off('data', onData);
    socket.off('error', onError);
    socket.off('close', onClose);
  };
  const onError = (): void => cleanup();
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
  socket.on('error', onError);
  socket.on('close', onClose);
}
