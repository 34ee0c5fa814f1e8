import { request as h1Request, type ClientRequest } from 'node:http';
import { connect, constants, type ClientHttp2Session } from 'node:http2';

/** What came back for a raw request: the Connect or gRPC code it carries, or why none. */
export interface RawAnswer {
  readonly status: number;
  /** Connect/gRPC code name (`invalid_argument`), `ok`, or `http <status>` when there is none. */
  readonly code: string;
  readonly ms: number;
}

const grpcCodes = [
  'ok',
  'canceled',
  'unknown',
  'invalid_argument',
  'deadline_exceeded',
  'not_found',
  'already_exists',
  'permission_denied',
  'resource_exhausted',
  'failed_precondition',
  'aborted',
  'out_of_range',
  'unimplemented',
  'internal',
  'unavailable',
  'data_loss',
  'unauthenticated',
];

/**
 * Sends one HTTP/1.1 POST on a fresh connection and reads the Connect code of the answer:
 * the JSON error body of a unary call, or the end-of-stream envelope of a streaming one.
 */
export function postH1(
  url: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array | AsyncIterable<Uint8Array>,
  timeoutMs = 10_000,
): Promise<RawAnswer> {
  const started = performance.now();
  return new Promise((resolve) => {
    const done = (status: number, code: string): void =>
      resolve({ status, code, ms: performance.now() - started });
    const req = h1Request(`${url}${path}`, { method: 'POST', headers, agent: false });
    let answered = 0;
    // A stream still open at the timeout after a 200 is a live stream, not a hang.
    const timer = setTimeout(() => {
      req.destroy();
      done(answered, answered === 200 ? 'ok (stream open)' : 'timeout');
    }, timeoutMs);
    req.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      done(0, `socket ${error.code ?? error.message}`);
    });
    req.on('response', (res) => {
      answered = res.statusCode ?? 0;
      const parts: Buffer[] = [];
      res.on('data', (part: Buffer) => parts.push(part));
      res.on('error', () => undefined);
      res.on('end', () => {
        clearTimeout(timer);
        const text = Buffer.concat(parts);
        done(
          res.statusCode ?? 0,
          connectCode(res.statusCode ?? 0, String(res.headers['content-type'] ?? ''), text),
        );
      });
    });
    if (body instanceof Uint8Array) req.end(body);
    else void writeStream(req, body);
  });
}

/** Writes a streamed body, waiting for drain; stops when the host closes the request. */
async function writeStream(req: ClientRequest, body: AsyncIterable<Uint8Array>): Promise<void> {
  try {
    for await (const part of body) {
      if (req.destroyed) return;
      if (!req.write(part)) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            req.off('drain', done);
            req.off('close', done);
            resolve();
          };
          req.once('drain', done);
          req.once('close', done);
        });
      }
    }
    req.end();
  } catch {
    req.destroy();
  }
}

function connectCode(status: number, contentType: string, body: Buffer): string {
  if (contentType.startsWith('application/connect+')) {
    // Envelopes: flags (1 byte), length (4 bytes), data; flag 2 marks the end of stream.
    for (let at = 0; at + 5 <= body.length;) {
      const flags = body[at] ?? 0;
      const length = body.readUInt32BE(at + 1);
      const data = body.subarray(at + 5, at + 5 + length);
      at += 5 + length;
      if ((flags & 2) === 0) continue;
      try {
        const end = JSON.parse(data.toString('utf8')) as { error?: { code?: string } };
        return end.error?.code ?? 'ok';
      } catch {
        return 'unparseable end of stream';
      }
    }
    return status === 200 ? 'no end of stream' : `http ${status}`;
  }
  if (status === 200) return 'ok';
  try {
    const error = JSON.parse(body.toString('utf8')) as { code?: string };
    return typeof error.code === 'string' ? error.code : `http ${status}`;
  } catch {
    return `http ${status}`;
  }
}

/** An h2c connection for raw gRPC requests. */
export interface H2Connection {
  post(
    path: string,
    headers: Record<string, string>,
    body: Uint8Array,
    timeoutMs?: number,
  ): Promise<RawAnswer>;
  close(): void;
}

/** Opens an h2c ("prior knowledge") connection to the host. */
export function h2Connection(url: string): H2Connection {
  let session: ClientHttp2Session | undefined;
  const open = (): ClientHttp2Session => {
    if (!session || session.closed || session.destroyed) {
      session = connect(url);
      session.on('error', () => undefined);
    }
    return session;
  };
  return {
    post(path, headers, body, timeoutMs = 10_000) {
      const started = performance.now();
      return new Promise((resolve) => {
        let status = 0;
        let code: string | undefined;
        let settled = false;
        const finish = (value: string): void => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          resolve({ status, code: code ?? value, ms: performance.now() - started });
        };
        let stream;
        try {
          stream = open().request({
            [constants.HTTP2_HEADER_METHOD]: 'POST',
            [constants.HTTP2_HEADER_PATH]: path,
            ...headers,
          });
        } catch (error) {
          resolve({ status, code: `session ${(error as Error).message}`, ms: 0 });
          return;
        }
        const timer = setTimeout(() => {
          const open = status === 200 && code === undefined;
          stream.close(constants.NGHTTP2_CANCEL);
          finish(open ? 'ok (stream open)' : 'timeout');
        }, timeoutMs);
        // The answer is in as soon as a grpc-status arrives, whatever the request body does.
        const grpc = (value: unknown): void => {
          if (value === undefined) return;
          code = grpcCodes[Number(value)] ?? `grpc ${String(value)}`;
          finish(code);
          stream.close(constants.NGHTTP2_CANCEL);
        };
        stream.on('response', (h) => {
          status = Number(h[':status'] ?? 0);
          grpc(h['grpc-status']);
        });
        stream.on('trailers', (t) => grpc(t['grpc-status']));
        stream.on('data', () => undefined);
        stream.on('error', (error: Error) => finish(`stream ${error.message}`));
        stream.on('close', () => finish(status === 200 ? 'no grpc-status' : `http ${status}`));
        stream.end(body);
      });
    },
    close: () => session?.close(),
  };
}

/** A gRPC / Connect envelope: flags, big-endian length, data. */
export function envelope(data: Uint8Array, flags = 0): Buffer {
  const head = Buffer.alloc(5);
  head[0] = flags;
  head.writeUInt32BE(data.length, 1);
  return Buffer.concat([head, data]);
}
