import { request as requestH1 } from 'node:http';
import { connect as connectH2, type ClientHttp2Session } from 'node:http2';

/** How a raw RPC is framed on the wire. */
export type RawProtocol = 'connect-json' | 'connect-proto' | 'grpc' | 'grpc-web';

/** A request sent byte for byte, bypassing every client library. */
export interface RawRequest {
  readonly protocol: RawProtocol;
  /** The method name, e.g. `Page`; the path is `/dsh.session.v1.SessionService/<method>`. */
  readonly method: string;
  /** Whether the method streams its response (Connect then uses envelopes). */
  readonly streaming: boolean;
  readonly body: Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  /** Overrides the path. */
  readonly path?: string;
  /** A response still open after this is cut off and counted as a healthy open stream. */
  readonly openStreamMs?: number;
}

/** What came back, and the RPC outcome read from it in its protocol. */
export interface RawResponse {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: Buffer;
  /** `ok`, or the Connect code string of the error (`invalid_argument`...). */
  readonly code: string;
  readonly message: string;
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

/** One enveloped message: flags byte, 4-byte big-endian length, data. */
export function envelope(data: Uint8Array, flags = 0): Uint8Array {
  const out = Buffer.alloc(5 + data.length);
  out[0] = flags;
  out.writeUInt32BE(data.length, 1);
  out.set(data, 5);
  return out;
}

function contentType(protocol: RawProtocol, streaming: boolean): string {
  switch (protocol) {
    case 'connect-json':
      return streaming ? 'application/connect+json' : 'application/json';
    case 'connect-proto':
      return streaming ? 'application/connect+proto' : 'application/proto';
    case 'grpc':
      return 'application/grpc+proto';
    case 'grpc-web':
      return 'application/grpc-web+proto';
  }
}

/** Sends `req` to `baseUrl` (gRPC over h2c, the rest over HTTP/1.1) and reads the outcome. */
export async function sendRaw(
  baseUrl: string,
  req: RawRequest,
  session?: ClientHttp2Session,
): Promise<RawResponse> {
  const path = req.path ?? `/dsh.session.v1.SessionService/${req.method}`;
  const headers: Record<string, string> = {
    'content-type': contentType(req.protocol, req.streaming),
    ...(req.protocol.startsWith('connect') && { 'connect-protocol-version': '1' }),
    ...(req.protocol === 'grpc' && { te: 'trailers' }),
    ...req.headers,
  };
  const wait = req.openStreamMs ?? 5_000;
  const got =
    req.protocol === 'grpc'
      ? await sendH2(baseUrl, path, headers, req.body, wait, session)
      : await sendH1(baseUrl, path, headers, req.body, wait);
  if (got.cut && got.status === 200) return { ...got, code: 'ok', message: 'open stream' };
  return { ...got, ...outcome(req, got) };
}

interface Got {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  trailers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** True when the response was still open after the wait and was cut off. */
  cut: boolean;
}

function sendH1(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  waitMs: number,
): Promise<Got> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = requestH1(
      { host: hostname, port, path, method: 'POST', headers, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        const done = (cut: boolean): void => {
          clearTimeout(timer);
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            trailers: res.trailers,
            body: Buffer.concat(chunks),
            cut,
          });
        };
        const timer = setTimeout(() => {
          done(true);
          req.destroy();
        }, waitMs);
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => done(false));
        res.on('error', () => {});
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function sendH2(
  baseUrl: string,
  path: string,
  headers: Record<string, string>,
  body: Uint8Array,
  waitMs: number,
  shared?: ClientHttp2Session,
): Promise<Got> {
  const session = shared ?? connectH2(baseUrl);
  try {
    return await new Promise<Got>((resolve, reject) => {
      const stream = session.request({ ':method': 'POST', ':path': path, ...headers });
      let status = 0;
      let head: Got['headers'] = {};
      let trailers: Got['trailers'] = {};
      const chunks: Buffer[] = [];
      stream.on('response', (h) => {
        status = Number(h[':status']);
        head = h;
      });
      stream.on('trailers', (t) => (trailers = t));
      const done = (cut: boolean): void => {
        clearTimeout(timer);
        resolve({ status, headers: head, trailers, body: Buffer.concat(chunks), cut });
      };
      const timer = setTimeout(() => {
        done(true);
        stream.close();
      }, waitMs);
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => done(false));
      stream.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      stream.end(body);
    });
  } finally {
    if (shared === undefined) session.close();
  }
}

function outcome(req: RawRequest, got: Got): { code: string; message: string } {
  const text = (v: string | string[] | undefined): string => (Array.isArray(v) ? v[0]! : (v ?? ''));
  if (req.protocol === 'grpc' || req.protocol === 'grpc-web') {
    let status = text(got.trailers['grpc-status']) || text(got.headers['grpc-status']);
    let message = text(got.trailers['grpc-message']) || text(got.headers['grpc-message']);
    if (status === '' && req.protocol === 'grpc-web') {
      const trailer = lastEnvelope(got.body, 0x80);
      status = /grpc-status:\s*(\d+)/i.exec(trailer)?.[1] ?? '';
      message = /grpc-message:\s*(.*)/i.exec(trailer)?.[1]?.trim() ?? '';
    }
    if (status === '') return { code: `no grpc-status (HTTP ${got.status})`, message: '' };
    return { code: grpcCodes[Number(status)] ?? status, message: decodeURIComponent(message) };
  }
  if (!req.streaming) {
    if (got.status === 200) return { code: 'ok', message: '' };
    const json = parseJson(got.body.toString('utf8')) as { code?: string; message?: string };
    return { code: json?.code ?? `HTTP ${got.status}`, message: json?.message ?? '' };
  }
  if (got.status !== 200) {
    const json = parseJson(got.body.toString('utf8')) as { code?: string; message?: string };
    return { code: json?.code ?? `HTTP ${got.status}`, message: json?.message ?? '' };
  }
  const end = parseJson(lastEnvelope(got.body, 0x02)) as {
    error?: { code?: string; message?: string };
  };
  if (end === undefined) return { code: 'no end-stream message', message: '' };
  return { code: end.error?.code ?? 'ok', message: end.error?.message ?? '' };
}

function lastEnvelope(body: Buffer, flag: number): string {
  let offset = 0;
  let found = '';
  while (offset + 5 <= body.length) {
    const length = body.readUInt32BE(offset + 1);
    if ((body[offset]! & flag) !== 0) {
      found = body.subarray(offset + 5, offset + 5 + length).toString('utf8');
    }
    offset += 5 + length;
  }
  return found;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
