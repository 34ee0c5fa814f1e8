/**
 * A load generator's view of the Connect binary protocol over HTTP/1.1: the fan-out
 * bench's clients stand for people on other machines, yet here they share the host's 2
 * cores, so they read only what a measurement needs. A follower parses each frame's
 * envelope and walks its events with protobuf-es's `BinaryReader` for seq, time and the
 * payload's case, skipping the rest; a page request counts the response's events. The
 * requests are the Connect client's, so the host does the same work for either
 * (`fanout-clients.ts` runs either, by the job's `reader`).
 */
import { request, type IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { create, toBinary, type DescMessage } from '@bufbuild/protobuf';
import { BinaryReader } from '@bufbuild/protobuf/wire';
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

/** Reads one `SessionEvent`'s seq, time and payload case. */
function readEvent(bytes: Uint8Array): WireEvent {
  const reader = new BinaryReader(bytes);
  const event: WireEvent = { seq: 0, timeMs: undefined, payload: undefined };
  while (reader.pos < reader.len) {
    const [no, type] = reader.tag();
    if (no === follow.seq) event.seq = reader.uint32();
    else if (no === follow.time) event.timeMs = readTimestampMs(reader.bytes());
    else {
      const name = payloadCases.get(no);
      if (name !== undefined) event.payload = name;
      reader.skip(type, no);
    }
  }
  return event;
}

function readTimestampMs(bytes: Uint8Array): number {
  const reader = new BinaryReader(bytes);
  let seconds = 0;
  let nanos = 0;
  while (reader.pos < reader.len) {
    const [no, type] = reader.tag();
    if (no === 1) seconds = Number(reader.int64());
    else if (no === 2) nanos = reader.int32();
    else reader.skip(type, no);
  }
  return seconds * 1000 + nanos / 1e6;
}

/** Appends the event of one `SessionEventEntry`. */
function readEntry(bytes: Uint8Array, out: WireEvent[]): void {
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, type] = reader.tag();
    if (no === follow.entry) out.push(readEvent(reader.bytes()));
    else reader.skip(type, no);
  }
}

/** The events of one `FollowResponse`, `opening` for its first frame (none for a heartbeat). */
export function followFrameEvents(bytes: Uint8Array): WireEvent[] | 'opening' {
  const out: WireEvent[] = [];
  const reader = new BinaryReader(bytes);
  while (reader.pos < reader.len) {
    const [no, type] = reader.tag();
    if (no === follow.opening) return 'opening';
    if (no === follow.event) readEntry(reader.bytes(), out);
    else if (no === follow.events) {
      const batch = new BinaryReader(reader.bytes());
      while (batch.pos < batch.len) {
        const [inner, innerType] = batch.tag();
        if (inner === follow.batch) readEntry(batch.bytes(), out);
        else batch.skip(innerType, inner);
      }
    } else reader.skip(type, no);
  }
  return out;
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
          const reader = new BinaryReader(gzipped ? gunzipSync(bytes) : bytes);
          let events = 0;
          while (reader.pos < reader.len) {
            const [no, type] = reader.tag();
            if (no === pageEvents) events++;
            reader.skip(type, no);
          }
          resolve(events);
        });
        res.on('error', reject);
      }),
  );
}
