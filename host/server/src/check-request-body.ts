import {
  fromBinary,
  type DescMessage,
  type DescMethod,
  type MessageShape,
} from '@bufbuild/protobuf';
import { Code, ConnectError, createContextKey, type Interceptor } from '@connectrpc/connect';
import type { Compression, UniversalServerRequest } from '@connectrpc/connect/protocol';

/** Why a request body cannot be decoded, found before connect parses it. */
export interface BodyFault {
  readonly code: Code;
  readonly message: string;
  /**
   * Not worth a log line: an empty body on a streaming call, which is what a client that
   * aborts while sending its request leaves behind (it ends the stream, then resets it).
   */
  readonly quiet?: boolean;
}

/** The fault `checkRequestBody` found, for `createRequestBodyInterceptor` to answer with. */
export const bodyFaultKey = createContextKey<BodyFault | undefined>(undefined, {
  description: 'request body fault',
});

/** How a request body is framed, by content type. */
type Framing =
  | { kind: 'unary'; binary: boolean; encodingHeader: string }
  | { kind: 'envelopes'; binary: boolean; encodingHeader: string };

/**
 * Reads and decodes the body of a request for `method` before connect does, so that every
 * way a body can be broken (binary junk, a truncated or corrupt compressed body, a cut
 * envelope, unknown envelope flags, a compressed envelope without an encoding, zero or
 * several request messages) answers `invalid_argument` in the request's own protocol;
 * connect answers `internal` for some of these. A broken body is replaced by an empty
 * valid one and its fault stored under `bodyFaultKey`; the interceptor then refuses
 * the call before the handler runs. Bodies over the limit and unknown encodings pass
 * through unread for connect to refuse as it does.
 */
export async function checkRequestBody(
  req: UniversalServerRequest,
  method: DescMethod,
  options: {
    readonly readMaxBytes: number;
    readonly compressions: readonly Compression[];
    /** True once the client has gone away (its body then ends early, through no fault). */
    readonly clientLeft: () => boolean;
  },
): Promise<UniversalServerRequest> {
  const framing = framingOf(req, method);
  const source = req.body;
  if (framing === undefined || !isByteStream(source)) return req;
  const read = await readBounded(source, options.readMaxBytes + 5);
  if (!read.complete) return { ...req, body: read.body };
  // A body cut short by a client that went away is not the client's fault to report.
  if (req.signal.aborted || options.clientLeft()) return { ...req, body: once(read.bytes) };
  const encoding = req.header.get(framing.encodingHeader);
  const compression =
    encoding === null || encoding === 'identity'
      ? undefined
      : options.compressions.find((c) => c.name === encoding);
  if (encoding !== null && encoding !== 'identity' && compression === undefined) {
    return { ...req, body: once(read.bytes) };
  }
  const fault =
    framing.kind === 'unary'
      ? await checkUnary(read.bytes, framing.binary, method, compression, options.readMaxBytes)
      : await checkEnvelopes(read.bytes, framing.binary, method, compression, options, encoding);
  if (fault === undefined) return { ...req, body: once(read.bytes) };
  req.contextValues?.set(bodyFaultKey, fault);
  const header = new Headers(req.header);
  header.delete('content-length');
  header.delete(framing.encodingHeader);
  return { ...req, header, body: once(emptyBody(framing)) };
}

/**
 * The one request message of an uncompressed binary enveloped body (a server-streaming
 * call written directly), checked as `checkRequestBody` checks it: a `ConnectError`
 * with the same code and message when it is broken.
 */
export async function parseBinaryEnvelope(
  bytes: Uint8Array,
  method: DescMethod,
  readMaxBytes: number,
): Promise<MessageShape<DescMessage>> {
  const fault = await checkEnvelopes(bytes, true, method, undefined, { readMaxBytes }, null);
  if (fault !== undefined) throw new ConnectError(fault.message, fault.code);
  // The one envelope it passes unchecked: one over the limit, which Connect refuses so.
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
  if (length > readMaxBytes) {
    throw new ConnectError(
      `the request message of ${length} bytes is over the host's limit of ${readMaxBytes}: ` +
        'send a smaller one',
      Code.ResourceExhausted,
    );
  }
  return fromBinary(method.input, bytes.subarray(5));
}

/** Refuses a call whose body `checkRequestBody` found broken, with the fault it found. */
export function createRequestBodyInterceptor(): Interceptor {
  return (next) => async (req) => {
    const fault = req.contextValues.get(bodyFaultKey);
    if (fault !== undefined) throw new ConnectError(fault.message, fault.code);
    return await next(req);
  };
}

function framingOf(req: UniversalServerRequest, method: DescMethod): Framing | undefined {
  if (req.method !== 'POST') return undefined;
  const type = (req.header.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const unary = method.methodKind === 'unary';
  switch (type) {
    case 'application/proto':
      return unary
        ? { kind: 'unary', binary: true, encodingHeader: 'content-encoding' }
        : undefined;
    case 'application/connect+proto':
    case 'application/connect+json': {
      if (unary) return undefined;
      const binary = type.endsWith('proto');
      return { kind: 'envelopes', binary, encodingHeader: 'connect-content-encoding' };
    }
    case 'application/grpc':
    case 'application/grpc+proto':
    case 'application/grpc+json':
    case 'application/grpc-web':
    case 'application/grpc-web+proto':
    case 'application/grpc-web+json':
      return { kind: 'envelopes', binary: !type.endsWith('json'), encodingHeader: 'grpc-encoding' };
    default:
      return undefined;
  }
}

async function checkUnary(
  bytes: Uint8Array,
  binary: boolean,
  method: DescMethod,
  compression: Compression | undefined,
  readMaxBytes: number,
): Promise<BodyFault | undefined> {
  if (!binary) return undefined; // connect's JSON parse already answers invalid_argument
  const data = await decompress(bytes, compression, readMaxBytes);
  if ('fault' in data) return data.fault;
  return parseFault(data.bytes, method);
}

async function checkEnvelopes(
  bytes: Uint8Array,
  binary: boolean,
  method: DescMethod,
  compression: Compression | undefined,
  options: { readonly readMaxBytes: number },
  encoding: string | null,
): Promise<BodyFault | undefined> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let offset = 0;
  let messages = 0;
  while (offset < bytes.length) {
    if (bytes.length - offset < 5) {
      return invalid(
        `the request body ends inside an envelope header (${bytes.length - offset} of 5 ` +
          'bytes): send each message as one flags byte, a 4-byte length and the message',
      );
    }
    const flags = view.getUint8(offset);
    const length = view.getUint32(offset + 1);
    if (length > options.readMaxBytes) return undefined; // connect refuses it as too large
    const start = offset + 5;
    if (bytes.length - start < length) {
      return invalid(
        `the request envelope promises ${length} bytes but only ${bytes.length - start} ` +
          'follow: send the whole message',
      );
    }
    if ((flags & ~1) !== 0) {
      return invalid(`unknown request envelope flags 0x${flags.toString(16)}: use 0 or 1`);
    }
    let data = bytes.subarray(start, start + length);
    if ((flags & 1) !== 0) {
      if (compression === undefined) {
        return invalid(
          `a compressed request envelope arrived without an encoding (${encoding ?? 'none'}): ` +
            'name it in the encoding header, or clear flag 1',
        );
      }
      const out = await decompress(data, compression, options.readMaxBytes);
      if ('fault' in out) return out.fault;
      data = out.bytes;
    }
    if (binary) {
      const fault = parseFault(data, method);
      if (fault !== undefined) return fault;
    }
    messages += 1;
    offset = start + length;
  }
  if (messages !== 1) {
    const fault = invalid(
      `the request holds ${messages} messages: ${method.name} takes exactly one ` +
        `${method.input.typeName}`,
    );
    return bytes.length === 0 ? { ...fault, quiet: true } : fault;
  }
  return undefined;
}

async function decompress(
  bytes: Uint8Array,
  compression: Compression | undefined,
  readMaxBytes: number,
): Promise<{ bytes: Uint8Array } | { fault: BodyFault }> {
  if (compression === undefined) return { bytes };
  try {
    return { bytes: await compression.decompress(bytes, readMaxBytes) };
  } catch (error) {
    const mapped = ConnectError.from(error);
    const code = mapped.code === Code.ResourceExhausted ? mapped.code : Code.InvalidArgument;
    return { fault: { code, message: mapped.rawMessage } };
  }
}

/** The binary request message of `method`; bytes that do not parse are `invalid_argument`. */
export function parseBinaryMessage(
  bytes: Uint8Array,
  method: DescMethod,
): MessageShape<DescMessage> {
  try {
    return fromBinary(method.input, bytes);
  } catch (error) {
    const fault = notParsed(error, method);
    throw new ConnectError(fault.message, fault.code);
  }
}

function parseFault(bytes: Uint8Array, method: DescMethod): BodyFault | undefined {
  try {
    fromBinary(method.input, bytes);
    return undefined;
  } catch (error) {
    return notParsed(error, method);
  }
}

function notParsed(error: unknown, method: DescMethod): BodyFault {
  const reason = error instanceof Error ? error.message : String(error);
  return invalid(
    `the request is not a valid binary ${method.input.typeName} (${reason}): ` +
      'encode it with protobuf, or send JSON with the matching content type',
  );
}

function invalid(message: string): BodyFault {
  return { code: Code.InvalidArgument, message };
}

function emptyBody(framing: Framing): Uint8Array {
  if (framing.kind === 'unary') return new Uint8Array(0);
  const message = framing.binary ? new Uint8Array(0) : new TextEncoder().encode('{}');
  const out = new Uint8Array(5 + message.length);
  new DataView(out.buffer).setUint32(1, message.length);
  out.set(message, 5);
  return out;
}

type Bounded =
  { complete: true; bytes: Uint8Array } | { complete: false; body: AsyncIterable<Uint8Array> };

/** The whole body when it has at most `limit` bytes; else what was read plus the rest. */
async function readBounded(source: AsyncIterable<Uint8Array>, limit: number): Promise<Bounded> {
  const it = source[Symbol.asyncIterator]();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const next = await it.next();
    if (next.done === true) break;
    chunks.push(next.value);
    total += next.value.byteLength;
    if (total > limit) {
      const rest = { [Symbol.asyncIterator]: () => it };
      return { complete: false, body: prepend(chunks, rest) };
    }
  }
  return { complete: true, bytes: concat(chunks, total) };
}

async function* prepend(
  chunks: Uint8Array[],
  rest: AsyncIterable<Uint8Array>,
): AsyncGenerator<Uint8Array> {
  yield* chunks;
  yield* rest;
}

function concat(chunks: Uint8Array[], total: number): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

function once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  return (async function* () {
    yield bytes;
  })();
}

function isByteStream(body: unknown): body is AsyncIterable<Uint8Array> {
  return typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
}
