import { create, toBinary, type UnknownField } from '@bufbuild/protobuf';
import { BinaryWriter, WireType } from '@bufbuild/protobuf/wire';
import { SessionEventEntrySchema, type SessionEvent } from '@dsh/gen/events';
import { SessionSummarySchema, type SessionSummary } from '@dsh/gen/service';
import { sameElements } from './same-elements.js';

/**
 * Content types whose messages are protobuf binary: Connect unary and streaming, gRPC and
 * gRPC-web (whose default codec is proto; the `-text` variant base64s the same bytes).
 */
const binaryContentTypes = new Set([
  'application/proto',
  'application/connect+proto',
  'application/grpc',
  'application/grpc+proto',
  'application/grpc-web',
  'application/grpc-web+proto',
  'application/grpc-web-text',
  'application/grpc-web-text+proto',
]);

/**
 * True when a request's response travels in the protobuf binary format, judged from its
 * content type. A request without one (a Connect GET) counts as not binary, so its
 * response is built the plain way.
 */
export function isBinaryWire(header: Headers): boolean {
  const type = header.get('content-type');
  if (type === null) return false;
  return binaryContentTypes.has(type.split(';', 1)[0]!.trim().toLowerCase());
}

/**
 * The binary encoding of one repeated message field, element by element, each encoded
 * once per object: a session event sent to many followers, or a summary listed by many
 * calls, costs one encoding, and each response after that copies bytes.
 */
class EncodedOnce<T extends object> {
  private readonly bytes = new WeakMap<T, Uint8Array>();
  /** The last long field built: a list asked again unchanged is not joined again. */
  private last: { no: number; values: readonly T[]; data: Uint8Array } | undefined;

  constructor(private readonly encode: (value: T) => Uint8Array) {}

  /**
   * One unknown-field record holding `values` as repeated field `no`, in order. The
   * encoder writes a record as its tag and then its data, so the data is the first
   * element followed by tag and element for each other one: one copy of the bytes
   * instead of a record per element for the encoder to walk.
   */
  field(no: number, values: readonly T[]): UnknownField[] {
    if (values.length === 0) return [];
    const last = this.last;
    if (last !== undefined && last.no === no && sameElements(last.values, values)) {
      return [{ no, wireType: WireType.LengthDelimited, data: last.data }];
    }
    const parts = values.map((value) => this.of(value));
    const data = parts.length === 1 ? parts[0]! : joined(tagBytes(no), parts, 0);
    if (values.length >= rememberedLength) this.last = { no, values: [...values], data };
    return [{ no, wireType: WireType.LengthDelimited, data }];
  }

  /**
   * One record of field `outer` holding a message whose only field is repeated field
   * `inner` with `values` (at least one): the data is that message's length prefix, then
   * tag and element for each value, built in one copy.
   */
  nested(outer: number, inner: number, values: readonly T[]): UnknownField {
    const tag = tagBytes(inner);
    const parts = values.map((value) => this.of(value));
    let length = 0;
    for (const part of parts) length += tag.length + part.length;
    const prefix = new BinaryWriter().uint32(length).finish();
    const data = joined(tag, parts, prefix.length);
    data.set(prefix, 0);
    return { no: outer, wireType: WireType.LengthDelimited, data };
  }

  /** The length prefix and encoding of `value`: the `data` of a length-delimited record. */
  private of(value: T): Uint8Array {
    let data = this.bytes.get(value);
    if (data === undefined) {
      data = new BinaryWriter().bytes(this.encode(value)).finish();
      this.bytes.set(value, data);
    }
    return data;
  }
}

/** Fields of at least this many elements are remembered (`EncodedOnce.field`). */
const rememberedLength = 256;

/**
 * `parts` each after `tag`, following `offset` free bytes, without the first tag when
 * `offset` is 0 (the encoder writes a record's tag itself).
 */
function joined(tag: Uint8Array, parts: readonly Uint8Array[], offset: number): Uint8Array {
  const skip = offset === 0 ? tag.length : 0;
  let length = offset - skip;
  for (const part of parts) length += tag.length + part.length;
  const data = new Uint8Array(length);
  let at = offset;
  for (const part of parts) {
    if (at > 0 || skip === 0) {
      data.set(tag, at);
      at += tag.length;
    }
    data.set(part, at);
    at += part.length;
  }
  return data;
}

/** The tag of length-delimited field `no`, kept per field number. */
const tags = new Map<number, Uint8Array>();
function tagBytes(no: number): Uint8Array {
  let tag = tags.get(no);
  if (tag === undefined) {
    tag = new BinaryWriter().tag(no, WireType.LengthDelimited).finish();
    tags.set(no, tag);
  }
  return tag;
}

/** `SessionEventEntry { event }` for each event. */
export const encodedEntries = new EncodedOnce<SessionEvent>((event) =>
  toBinary(SessionEventEntrySchema, create(SessionEventEntrySchema, { event })),
);

/** Each wire summary as it is. */
export const encodedSummaries = new EncodedOnce<SessionSummary>((summary) =>
  toBinary(SessionSummarySchema, summary),
);

/**
 * `message` with `fields` appended as already-encoded bytes. The binary encoder writes
 * unknown fields verbatim after the known ones, which decoders read as the field itself;
 * the JSON encoder drops them, so only a response that travels binary (`isBinaryWire`)
 * may be built this way.
 */
export function withEncoded<T extends { $unknown?: UnknownField[] | undefined }>(
  message: T,
  fields: UnknownField[],
): T {
  message.$unknown = fields;
  return message;
}
