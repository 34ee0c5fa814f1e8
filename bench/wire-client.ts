/**
 * A load generator's view of the Connect binary protocol over HTTP/1.1: the fan-out
 * bench's clients stand for people on other machines, yet here they share the host's 2
 * cores, so they read only what a measurement needs. A follower parses each frame's
 * envelope and walks its events by hand for seq, time and the payload's case, skipping
 * the rest; a page request counts the response's events. The
 * requests are the Connect client's, so the host does the same work for either
 * (`fanout-clients.ts` runs either, by the job's `reader`).
 */
import { request, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { create, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { SessionEventEntrySchema, SessionEventSchema } from '@dsh/gen/events';
import {
  FollowEventsSchema,
  FollowRequestSchema,
  FollowResponseSchema,
  PageRequestSchema,
  PageResponseSchema,
  SessionService,
} from '@dsh/gen/service';

/** What a follower needs of an event. */
export interface WireEvent {
  seq: number;
  /** The event's time, epoch ms; undefined when absent. */
  timeMs: number | undefined;
  /** The payload's oneof case (`assistantChunk`, `turnEnd`, ...), undefined when unset. */
  payload: string | undefined;
}

/** How a wire stream ended: cleanly, or with the Connect error code of its end-stream message. */
export type WireEnd = { ok: true } | { ok: false; code: string; message: string };

const fieldNo = (schema: DescMessage, localName: string): number => {
  const field = schema.fields.find((f) => f.localName === localName);
  if (field === undefined) throw new Error(`${schema.typeName} has no field ${localName}`);
  return field.number;
};

const follow = {
  opening: fieldNo(FollowResponseSchema, 'opening'),
  event: fieldNo(FollowResponseSchema, 'event'),
  events: fieldNo(FollowResponseSchema, 'events'),
  batch: fieldNo(FollowEventsSchema, 'events'),
  entry: fieldNo(SessionEventEntrySchema, 'event'),
  seq: fieldNo(SessionEventSchema, 'seq'),
  time: fieldNo(SessionEventSchema, 'time'),
};
const pageEvents = fieldNo(PageResponseSchema, 'events');
/** Payload field numbers to their oneof case names. */
const payloadCases = new Map(
  SessionEventSchema.oneofs
    .find((o) => o.localName === 'payload')!
    .fields.map((f) => [f.number, f.localName]),
);

/**
 * A position in protobuf bytes, read by hand with plain loops: the bench's followers walk
 * ten million events a run, and `BinaryReader`'s allocation per nested message and BigInt
 * per timestamp (or a closure per field) cost more CPU than the host's own work for them.
 */
interface Cursor {
  readonly bytes: Uint8Array;
  pos: number;
}

/** The next varint as a number (exact up to 2^53, enough for seqs, lengths and seconds). */
function varint(at: Cursor): number {
  const { bytes } = at;
  let value = 0;
  let scale = 1;
  for (;;) {
    const byte = bytes[at.pos++];
    if (byte === undefined) throw new Error('a varint runs past the end of its message');
    value += (byte & 0x7f) * scale;
    if (byte < 0x80) return value;
    scale *= 128;
  }
}

/** Skips the value of a field of wire `type` (groups are not used by the schema). */
function skipValue(at: Cursor, type: number): void {
  if (type === 0) varint(at);
  else if (type === 1) at.pos += 8;
  else if (type === 2) {
    const length = varint(at);
    at.pos += length;
  } else if (type === 5) at.pos += 4;
  else throw new Error(`wire type ${type} is not expected here`);
}

/** The end of the length-delimited value at the cursor (the cursor moves past its length). */
function nestedEnd(at: Cursor): number {
  const length = varint(at);
  return at.pos + length;
}

function readTimestampMs(at: Cursor, end: number): number {
  let seconds = 0;
  let nanos = 0;
  while (at.pos < end) {
    const tag = varint(at);
    if (tag === 0o10) seconds = varint(at);
    else if (tag === 0o20) nanos = varint(at);
    else skipValue(at, tag & 7);
  }
  return seconds * 1000 + nanos / 1e6;
}

/** Reads one `SessionEvent`'s seq, time and payload case. */
function readEvent(at: Cursor, end: number): WireEvent {
  const event: WireEvent = { seq: 0, timeMs: undefined, payload: undefined };
  while (at.pos < end) {
    const tag = varint(at);
    const no = Math.floor(tag / 8);
    if (no === follow.seq) event.seq = varint(at);
    else if (no === follow.time) event.timeMs = readTimestampMs(at, nestedEnd(at));
    else {
      event.payload = payloadCases.get(no) ?? event.payload;
      skipValue(at, tag & 7);
    }
  }
  return event;
}

/** Appends the event of the `SessionEventEntry` that ends at `end`. */
function readEntry(at: Cursor, end: number, out: WireEvent[]): void {
  while (at.pos < end) {
    const tag = varint(at);
    if (Math.floor(tag / 8) === follow.entry) out.push(readEvent(at, nestedEnd(at)));
    else skipValue(at, tag & 7);
  }
}

/** The events of one `FollowResponse`, `opening` for its first frame (none for a heartbeat). */
export function followFrameEvents(bytes: Uint8Array): WireEvent[] | 'opening' {
  const out: WireEvent[] = [];
  const at: Cursor = { bytes, pos: 0 };
  while (at.pos < bytes.length) {
    const tag = varint(at);
    const no = Math.floor(tag / 8);
    if (no === follow.opening) return 'opening';
    if (no === follow.event) readEntry(at, nestedEnd(at), out);
    else if (no !== follow.events) skipValue(at, tag & 7);
    else {
      const end = nestedEnd(at);
      while (at.pos < end) {
        const inner = varint(at);
        if (Math.floor(inner / 8) === follow.batch) readEntry(at, nestedEnd(at), out);
        else skipValue(at, inner & 7);
      }
    }
  }
  return out;
}

/** The number of `events` fields of a `PageResponse`. */
function pageEventCount(bytes: Uint8Array): number {
  const at: Cursor = { bytes, pos: 0 };
  let events = 0;
  while (at.pos < bytes.length) {
    const tag = varint(at);
    if (Math.floor(tag / 8) === pageEvents) events++;
    skipValue(at, tag & 7);
  }
  return events;
}

function enveloped(message: Uint8Array): Buffer {
  const out = Buffer.alloc(5 + message.length);
  out.writeUInt32BE(message.length, 1);
  out.set(message, 5);
  return out;
}

/** What a follower hears of its stream. */
export interface FollowHandlers {
  opening(): void;
  /** A frame's events, as it arrives. */
  events(events: WireEvent[]): void;
}

/** The request of a follow stream. */
export interface FollowParams {
  sessionId: string;
  afterSeq?: number;
  maxBatchEvents: number;
}

/**
 * Follows a session with a binary Connect stream over HTTP/1.1. Resolves with how the
 * stream ended; rejects on a transport error or a response that is not a Connect stream.
 */
export function followOverWire(
  url: string,
  params: FollowParams,
  on: FollowHandlers,
  signal: AbortSignal,
): Promise<WireEnd> {
  const body = enveloped(toBinary(FollowRequestSchema, create(FollowRequestSchema, params)));
  const headers = { 'content-type': 'application/connect+proto' };
  return post(url, 'Follow', body, headers, signal).then(
    (res) =>
      new Promise((resolve, reject) => {
        let pending: Buffer = Buffer.alloc(0);
        res.on('data', (chunk: Buffer) => {
          pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
          let at = 0;
          while (pending.length - at >= 5) {
            const flags = pending[at]!;
            const length = pending.readUInt32BE(at + 1);
            if (pending.length - at - 5 < length) break;
            const message = pending.subarray(at + 5, at + 5 + length);
            at += 5 + length;
            if ((flags & 2) === 2) return void resolve(endStream(message));
            if ((flags & 1) === 1)
              return void reject(new Error('a compressed frame, not asked for'));
            const frame = followFrameEvents(message);
            if (frame === 'opening') on.opening();
            else if (frame.length > 0) on.events(frame);
          }
          pending = pending.subarray(at);
        });
        res.on('end', () => resolve({ ok: false, code: 'unknown', message: 'no end-stream' }));
        res.on('error', reject);
      }),
  );
}

function endStream(json: Uint8Array): WireEnd {
  const parsed = JSON.parse(Buffer.from(json).toString('utf8')) as {
    error?: { code?: string; message?: string };
  };
  if (parsed.error === undefined) return { ok: true };
  return { ok: false, code: parsed.error.code ?? 'unknown', message: parsed.error.message ?? '' };
}

/**
 * POSTs `body` to the RPC `method` over HTTP/1.1 (the global keep-alive agent) with the
 * Connect protocol version and `headers`: resolves with the response once it is a 200,
 * rejects with the status and body of any other, or on a transport error.
 */
function post(
  url: string,
  method: string,
  body: Uint8Array,
  headers: Record<string, string>,
  signal?: AbortSignal,
): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(`/${SessionService.typeName}/${method}`, url), {
      method: 'POST',
      signal,
      headers: { ...headers, 'connect-protocol-version': '1', 'content-length': body.length },
    });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode === 200) return resolve(res);
      const parts: Buffer[] = [];
      res.on('data', (chunk: Buffer) => parts.push(chunk));
      res.on('end', () =>
        reject(new Error(`HTTP ${res.statusCode}: ${Buffer.concat(parts).toString('utf8')}`)),
      );
    });
    req.end(body);
  });
}

/**
 * One tail `Page` of `sessionId` as a unary binary Connect request over HTTP/1.1 (the
 * global keep-alive agent): resolves with the number of events it carries. It accepts
 * gzip as the Connect client and browsers do, so the host compresses the answer alike.
 */
export function pageOverWire(url: string, sessionId: string): Promise<number> {
  const body = toBinary(PageRequestSchema, create(PageRequestSchema, { sessionId }));
  const headers = { 'content-type': 'application/proto', 'accept-encoding': 'gzip' };
  return post(url, 'Page', body, headers).then(
    (res) =>
      new Promise((resolve, reject) => {
        const parts: Buffer[] = [];
        res.on('data', (chunk: Buffer) => parts.push(chunk));
        res.on('end', () => {
          const bytes = Buffer.concat(parts);
          const gzipped = res.headers['content-encoding'] === 'gzip';
          resolve(pageEventCount(gzipped ? gunzipSync(bytes) : bytes));
        });
        res.on('error', reject);
      }),
  );
}
