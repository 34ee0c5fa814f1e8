import { create, fromJson, toJson, type JsonObject, type JsonValue } from '@bufbuild/protobuf';
import { timestampDate, type Timestamp } from '@bufbuild/protobuf/wkt';
import { ExtensionEventSchema, SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { eventTypes, payloadCaseByType } from './event-types.js';
import { noteLineLength } from './event-line-bytes.js';

/** A parse outcome: edges of the journal return results instead of throwing. */
export type LineResult<T> = { ok: true; value: T } | { ok: false; error: string };

/** Largest seq the host accepts: seqs are uint32 on the wire (see proto/). */
export const maxSeq = 4_294_967_295;

/** The journal type name of an event (`tool/call`, or an extension's own type). */
export function eventType(event: SessionEvent): string {
  const { payload } = event;
  if (payload.case === undefined) return 'unknown';
  if (payload.case === 'extension') return payload.value.type;
  return eventTypes[payload.case].type;
}

/**
 * Encodes an event as one journal line (no trailing newline):
 * `{"seq":N,"time":"RFC 3339","type":"tool/call",...payload fields in proto JSON}`.
 * An extension event writes its stored fields back beside seq, time and type.
 */
export function encodeEventLine(event: SessionEvent): string {
  const head = {
    seq: event.seq,
    time: event.time ? timestampJson(event.time) : new Date(0).toISOString(),
    type: eventType(event),
  };
  const { payload } = event;
  if (payload.case === undefined) return JSON.stringify(head);
  if (payload.case === 'extension') {
    // Head first (like every other line), and again last so stored fields cannot override it.
    return JSON.stringify({ ...head, ...extensionFields(payload.value.dataJson), ...head });
  }
  const body = toJson(eventTypes[payload.case].schema, payload.value) as JsonObject;
  return JSON.stringify({ ...head, ...body });
}

/** The validated seq, time and type of a parsed journal line, and all its fields. */
export interface EventHead {
  seq: number;
  time: Date;
  type: string;
  /** The whole parsed line, seq, time and type included. */
  fields: Record<string, JsonValue>;
}

/**
 * Decodes one journal line. It fails only when the line is not a JSON object, its
 * seq is not `expectedSeq`, or its time or type are missing or malformed. A known
 * type whose body does not fit the schema, and any unknown type, decode to an
 * extension event that keeps every field, so no written data is ever lost.
 */
export function decodeEventLine(line: string, expectedSeq: number): LineResult<SessionEvent> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch (error) {
    return { ok: false, error: `not valid JSON (${(error as Error).message})` };
  }
  const head = checkEventHead(parsed, expectedSeq);
  if (!head.ok) return head;
  const event = eventFromHead(head.value);
  noteLineLength(event, line.length);
  return { ok: true, value: event };
}

/**
 * Checks an already parsed line the way `decodeEventLine` does (object, seq, time,
 * type) without decoding its payload, so a scan can validate every line cheaply.
 */
export function checkEventHead(parsed: unknown, expectedSeq: number): LineResult<EventHead> {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: 'not a JSON object' };
  }
  const fields = parsed as Record<string, JsonValue>;
  const { seq, time, type } = fields;
  if (seq !== expectedSeq) {
    return { ok: false, error: `seq ${JSON.stringify(seq)} where ${expectedSeq} was expected` };
  }
  if (typeof type !== 'string' || type === '') {
    return { ok: false, error: 'missing "type"' };
  }
  const date = typeof time === 'string' ? new Date(time) : undefined;
  if (date === undefined || Number.isNaN(date.getTime())) {
    return { ok: false, error: `malformed "time" ${JSON.stringify(time)}` };
  }
  return { ok: true, value: { seq: expectedSeq, time: date, type, fields } };
}

/**
 * Builds the event of a checked line; a body that does not fit its type becomes an
 * extension. With `only`, just those payload fields are decoded (a projection that
 * reads two fields of a large tool result need not decode its content).
 */
export function eventFromHead(head: EventHead, only?: readonly string[]): SessionEvent {
  const { type } = head;
  // Object.fromEntries defines own properties, so a "__proto__" field stays plain data.
  const rest: Record<string, JsonValue> = Object.fromEntries(
    only === undefined
      ? Object.entries(head.fields).filter(([k]) => k !== 'seq' && k !== 'time' && k !== 'type')
      : only.filter((k) => Object.hasOwn(head.fields, k)).map((k) => [k, head.fields[k]!]),
  );
  const event = create(SessionEventSchema, { seq: head.seq, time: timestampOf(head.time) });
  const payloadCase = payloadCaseByType.get(type);
  if (payloadCase !== undefined) {
    try {
      const value = fromJson(eventTypes[payloadCase].schema, rest as JsonObject, {
        ignoreUnknownFields: true,
      });
      event.payload = { case: payloadCase, value } as SessionEvent['payload'];
      return event;
    } catch {
      // The body does not fit its type: keep it whole as an extension event.
    }
  }
  event.payload = {
    case: 'extension',
    value: create(ExtensionEventSchema, { type, dataJson: JSON.stringify(rest) }),
  };
  return event;
}

/** Reads the seq and type of a line cheaply, without decoding its payload. */
export function peekLine(line: string): { seq: unknown; type: unknown } | undefined {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const { seq, type } = parsed as { seq?: unknown; type?: unknown };
    return { seq, type };
  } catch {
    return undefined;
  }
}

function timestampJson(time: Timestamp): string {
  return timestampDate(time).toISOString();
}

function extensionFields(dataJson: string): Record<string, unknown> {
  if (dataJson === '') return {};
  try {
    const data = JSON.parse(dataJson) as unknown;
    if (typeof data === 'object' && data !== null && !Array.isArray(data)) {
      return data as Record<string, unknown>;
    }
    return { data };
  } catch {
    return { data: dataJson };
  }
}

/**
 * `timestampFromDate` without `create`'s reflection, which costs more than the rest of a
 * small event's decoding; a Timestamp is a plain object in protobuf-es.
 */
function timestampOf(date: Date): Timestamp {
  const ms = date.getTime();
  const seconds = Math.floor(ms / 1000);
  return {
    $typeName: 'google.protobuf.Timestamp',
    seconds: BigInt(seconds),
    nanos: (ms - seconds * 1000) * 1_000_000,
  };
}
