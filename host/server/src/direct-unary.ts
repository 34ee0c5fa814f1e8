import type { DescMessage, DescMethod, DescMethodUnary, MessageShape } from '@bufbuild/protobuf';
import {
  createMethodSerializationLookup,
  type MethodSerializationLookup,
} from '@connectrpc/connect/protocol';
import { codeToHttpStatus, errorToJsonBytes } from '@connectrpc/connect/protocol-connect';
import { parseBinaryMessage } from './check-request-body.js';
import { startDirectCall } from './direct-call.js';
import { readRequestBody, type DirectStreamOptions } from './direct-stream.js';
import { requestFailure } from './error-interceptor.js';
import { strictCompressions } from './strict-compression.js';
import { writeChunk, type NodeResponse } from './write-node-response.js';
import type { NodeRequest } from './rpc-handler.js';

/**
 * A unary RPC whose answer the host writes itself when the request is plain Connect,
 * binary or JSON (`directUnaryFormat`): the answer comes as bytes, the same object while
 * it is unchanged (a list of 10,000 sessions asked again), so neither its encoding nor
 * its gzip form is built again per call. Every other request of the RPC (gRPC,
 * gRPC-Web, a compressed request, a timeout, GET) goes through Connect, which answers
 * the same.
 */
export interface DirectUnary<I extends DescMessage = DescMessage> {
  readonly method: DescMethod;
  /**
   * The encoding of the answer to `request`, protobuf binary or Connect's JSON as `format`
   * says; a thrown error answers its code.
   */
  answer(request: MessageShape<I>, signal: AbortSignal, format: UnaryFormat): Promise<Uint8Array>;
}

/** How a direct unary call's messages are encoded. */
export type UnaryFormat = 'binary' | 'json';

/** The Connect unary content type of each format. */
const contentTypes: Record<UnaryFormat, string> = {
  binary: 'application/proto',
  json: 'application/json',
};

/** What `serveDirectUnary` needs from the server: a direct stream's, without the slices. */
export type DirectUnaryOptions = Omit<DirectStreamOptions, 'slices'>;

/**
 * The format of a unary request that can be served directly: a POST of
 * `application/proto` or `application/json` (no parameters), uncompressed, without
 * `connect-timeout-ms` (whose deadline Connect keeps); undefined for any other.
 */
export function directUnaryFormat(req: NodeRequest): UnaryFormat | undefined {
  const { headers } = req;
  if (req.method !== 'POST') return undefined;
  const type = headers['content-type']?.toLowerCase();
  const format =
    type === contentTypes.binary ? 'binary' : type === contentTypes.json ? 'json' : undefined;
  const encoding = headers['content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return undefined;
  return headers['connect-timeout-ms'] === undefined ? format : undefined;
}

/** Answers smaller than this go uncompressed, as Connect's own default has it. */
const compressMinBytes = 1024;

/** The gzip form of each answer, made once per answer object. */
const gzipped = new WeakMap<Uint8Array, Promise<Uint8Array>>();

const gzip = strictCompressions.find((c) => c.name === 'gzip')!;

/** The request compressions the host reads, as Connect's answers name them. */
const acceptEncoding = strictCompressions.map((c) => c.name).join(', ');

/**
 * Serves one direct unary call: checks access, reads and parses the request (as Connect
 * parses it, with the same errors), and writes the answer (gzip when the client accepts
 * it and it is not small, at the level of every answer of the host, `answerCompression`)
 * or the Connect error JSON with the code's HTTP status. A client that leaves aborts the
 * call's signal; a client that stops reading is closed after `stallTimeoutMs`.
 */
export async function serveDirectUnary(
  req: NodeRequest,
  res: NodeResponse,
  unary: DirectUnary,
  format: UnaryFormat,
  options: DirectUnaryOptions,
): Promise<void> {
  const call = startDirectCall(res, options.shutdown);
  const procedure = `${unary.method.parent.name}/${unary.method.name}`;
  try {
    const refused = options.refuse(req);
    if (refused !== undefined) throw refused;
    const body = await readRequestBody(req, options.readMaxBytes, 0);
    const request =
      format === 'binary'
        ? parseBinaryMessage(body, unary.method)
        : connectSerialization(unary.method).getI(false).parse(body);
    const answer = await unary.answer(request, call.signal, format);
    const compress =
      answer.length >= compressMinBytes && acceptsGzip(req.headers['accept-encoding']);
    const data = compress ? await gzipOnce(answer) : answer;
    if (call.closed()) return;
    res.writeHead(200, {
      'content-type': contentTypes[format],
      'accept-encoding': acceptEncoding,
      'content-length': String(data.length),
      ...(compress ? { 'content-encoding': 'gzip' } : {}),
    });
    await writeChunk(res, data, call.closed, options.stallTimeoutMs);
    res.end();
  } catch (error) {
    const failure = requestFailure(error, {
      procedure,
      aborted: call.signal.aborted,
      quiet: false,
      log: options.log,
    });
    if (call.closed() || res.headersSent) return;
    const json = errorToJsonBytes(failure, {});
    res.writeHead(codeToHttpStatus(failure.code), {
      'content-type': 'application/json',
      'content-length': String(json.length),
    });
    res.end(json);
  } finally {
    call.release();
  }
}

/** Connect's serializations by method. */
const serializations = new WeakMap<
  DescMethod,
  MethodSerializationLookup<DescMessage, DescMessage>
>();

/**
 * Connect's own serializations of `method`, made once: JSON parsed and written by them
 * gives the same text and the same parse errors as Connect's handlers. Sizes are bounded
 * before (`readRequestBody`), so they set no limit of their own.
 */
export function connectSerialization(
  method: DescMethod,
): MethodSerializationLookup<DescMessage, DescMessage> {
  let lookup = serializations.get(method);
  if (lookup === undefined) {
    const unlimited = { readMaxBytes: 0xffffffff, writeMaxBytes: 0xffffffff };
    const unary = method as DescMethodUnary<DescMessage, DescMessage>;
    lookup = createMethodSerializationLookup(unary, undefined, undefined, unlimited);
    serializations.set(method, lookup);
  }
  return lookup;
}

/** `answer` gzipped, made once per answer object (concurrent calls share the work). */
function gzipOnce(answer: Uint8Array): Promise<Uint8Array> {
  let made = gzipped.get(answer);
  if (made === undefined) {
    made = gzip.compress(answer);
    gzipped.set(answer, made);
    // A failed compression is not kept: the next call tries again.
    made.catch(() => gzipped.delete(answer));
  }
  return made;
}

/** True when an `Accept-Encoding` header lists gzip (or `*`) without `q=0`. */
export function acceptsGzip(header: string | string[] | undefined): boolean {
  const value = Array.isArray(header) ? header.join(',') : (header ?? '');
  for (const part of value.split(',')) {
    const [name = '', ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (name !== 'gzip' && name !== '*') continue;
    const q = params.find((p) => p.startsWith('q='));
    if (q === undefined || Number(q.slice(2)) > 0) return true;
  }
  return false;
}
