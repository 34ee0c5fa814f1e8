import { toBinary, type DescMessage, type DescMethod, type MessageShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import { createEndStreamSerialization, endStreamFlag } from '@connectrpc/connect/protocol-connect';
import { parseBinaryEnvelope } from './check-request-body.js';
import { clientGone } from './client-gone.js';
import { startDirectCall } from './direct-call.js';
import { requestFailure, type RequestLog } from './error-interceptor.js';
import type { LoopSlices } from './loop-slices.js';
import { isStalledClient, writeChunk, type NodeResponse } from './write-node-response.js';
import type { NodeRequest } from './rpc-handler.js';

/**
 * A server-streaming RPC that the host writes itself when the request is plain binary
 * Connect (`directStreamRequest`): each response is enveloped once per shared frame and
 * written straight to the socket, without Connect's per-message pipeline of async
 * generators, which costs more than the write itself when one event goes to a thousand
 * followers. Every other request of the RPC (Connect JSON, gRPC, gRPC-Web, compressed,
 * with a timeout) goes through Connect, so both paths answer the same.
 */
export interface DirectStream<I extends DescMessage = DescMessage> {
  /** The RPC: its request and response messages, and its name for log lines. */
  readonly method: DescMethod;
  /**
   * An object that stands for `message`'s bytes, the same object for every message that
   * encodes alike (a frame shared by followers in step), so its envelope is built once;
   * undefined for a message of its own.
   */
  readonly sharedKey: (message: object) => object | undefined;
  /**
   * Streams the responses to `request` into `sink` until it ends or `signal` aborts (the
   * client left, the host shuts down); a thrown error ends the stream with its Connect
   * code.
   */
  serve(request: MessageShape<I>, signal: AbortSignal, sink: FrameSink): Promise<void>;
}

/** Where a direct stream writes its responses. */
export interface FrameSink {
  /**
   * Writes `message` enveloped. False when the socket did not take it at once: await
   * `drained()` before the next write. Throws when the client is gone.
   */
  write(message: object): boolean;
  /** `message` enveloped, as `write` would send it (built once per `sharedKey`). */
  envelope(message: object): Uint8Array;
  /** Writes bytes of whole envelopes (`envelope`'s, joined); returns as `write` does. */
  writeBytes(bytes: Uint8Array): boolean;
  /**
   * About the most bytes of envelopes to join into one write (`http1JoinBytes`), 0 for one
   * envelope a write.
   */
  readonly joinBytes: number;
  /**
   * Resolves once the last write is flushed; rejects when the client left, or read
   * nothing for the stall timeout (it is closed then).
   */
  drained(): Promise<void>;
  /** Undefined while the loop's slice for writers has time left, else when to go on. */
  pause(): Promise<void> | undefined;
}

/** What `serveDirectStream` needs from the server. */
export interface DirectStreamOptions {
  /** Why the request may not be served (a missing token...), or undefined. */
  readonly refuse: (req: NodeRequest) => ConnectError | undefined;
  readonly readMaxBytes: number;
  readonly stallTimeoutMs: number;
  readonly slices: LoopSlices;
  readonly log: RequestLog;
  /** Aborts every call when the host shuts down. */
  readonly shutdown: AbortSignal;
}

/**
 * True when a request can be served directly: POST of `application/connect+proto` (no
 * parameters), uncompressed, without `connect-timeout-ms` (whose deadline Connect keeps).
 */
export function directStreamRequest(req: NodeRequest): boolean {
  const { headers } = req;
  if (req.method !== 'POST') return false;
  if (headers['content-type']?.toLowerCase() !== 'application/connect+proto') return false;
  const encoding = headers['connect-content-encoding'];
  if (encoding !== undefined && encoding !== 'identity') return false;
  return headers['connect-timeout-ms'] === undefined;
}

/**
 * How many bytes of envelopes an HTTP/1.1 stream joins into one write. A write that waits
 * for `drain` longer than the stall timeout closes its client, so it stays near the size
 * of one frame. HTTP/2 streams write one envelope at a time: their writes buffer in the
 * session's memory, shared by every stream of the connection, and past its cap Node
 * refuses the connection's new streams (ENHANCE_YOUR_CALM).
 */
export const http1JoinBytes = 64 * 1024;

/** The HTTP headers of every direct stream. */
const streamHeaders = { 'content-type': 'application/connect+proto' };

/** Enveloped response bytes by their stream's `sharedKey`. */
const envelopes = new WeakMap<object, Uint8Array>();

const endStream = createEndStreamSerialization(undefined);

/**
 * Serves one direct stream: checks access, reads the one enveloped request message,
 * runs the stream with a sink that envelopes and writes each response (its `drained()`
 * closes a client that read nothing for `stallTimeoutMs`; its `pause()` shares the
 * loop's slices with every other writer), and ends with the Connect end-stream message,
 * carrying the error when the stream failed.
 * A client that leaves aborts the stream's signal, so it releases what it holds.
 */
export async function serveDirectStream(
  req: NodeRequest,
  res: NodeResponse,
  stream: DirectStream,
  options: DirectStreamOptions,
): Promise<void> {
  const call = startDirectCall(res, options.shutdown);
  let failure: ConnectError | undefined;
  let pending: Promise<void> | undefined;
  const sink: FrameSink = {
    write: (message) => sink.writeBytes(envelope(stream, message)),
    envelope: (message) => envelope(stream, message),
    joinBytes: 'stream' in res ? 0 : http1JoinBytes,
    writeBytes(bytes) {
      if (!res.headersSent) res.writeHead(200, streamHeaders);
      pending = writeChunk(res, bytes, call.closed, options.stallTimeoutMs);
      if (pending === undefined) return true;
      // Awaited by `drained()`; until then its rejection is not unhandled.
      pending.catch(() => {});
      if (call.closed()) throw clientGone();
      return false;
    },
    drained: () => pending ?? Promise.resolve(),
    pause: () => options.slices.pause(),
  };
  try {
    const refused = options.refuse(req);
    if (refused !== undefined) throw refused;
    const body = await readRequestBody(req, options.readMaxBytes, 5);
    const request = await parseBinaryEnvelope(body, stream.method, options.readMaxBytes);
    await stream.serve(request, call.signal, sink);
  } catch (error) {
    if (isStalledClient(error)) {
      options.log(`dsh: ${procedureOf(stream)}: closed a stream whose client stopped reading`);
    }
    failure = requestFailure(error, {
      procedure: procedureOf(stream),
      aborted: call.signal.aborted,
      quiet: false,
      log: options.log,
    });
  } finally {
    call.release();
  }
  if (call.closed()) return;
  if (!res.headersSent) res.writeHead(200, streamHeaders);
  const data = endStream.serialize({ metadata: new Headers(), error: failure });
  res.end(envelopeBytes(endStreamFlag, data));
}

/** The request body: a message of at most `maxBytes`, plus `framing` bytes around it. */
export async function readRequestBody(
  req: NodeRequest,
  maxBytes: number,
  framing: number,
): Promise<Uint8Array> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes + framing) {
      throw new ConnectError(
        `the request body is over the host's limit of ${maxBytes} bytes: send a smaller message`,
        Code.ResourceExhausted,
      );
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

/** `message` enveloped, built once per `sharedKey`. */
function envelope(stream: DirectStream, message: object): Uint8Array {
  const key = stream.sharedKey(message);
  const known = key === undefined ? undefined : envelopes.get(key);
  if (known !== undefined) return known;
  const output = stream.method.output;
  const bytes = envelopeBytes(0, toBinary(output, message as MessageShape<DescMessage>));
  if (key !== undefined) envelopes.set(key, bytes);
  return bytes;
}

/** `Service/Method`, as log lines name a call. */
function procedureOf(stream: DirectStream): string {
  return `${stream.method.parent.name}/${stream.method.name}`;
}

/** One Connect envelope: `flags`, the length as 4 bytes big-endian, `data`. */
function envelopeBytes(flags: number, data: Uint8Array): Uint8Array {
  const bytes = new Uint8Array(5 + data.length);
  bytes[0] = flags;
  new DataView(bytes.buffer).setUint32(1, data.length);
  bytes.set(data, 5);
  return bytes;
}
