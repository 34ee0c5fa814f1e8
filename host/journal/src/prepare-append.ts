import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import { checkAppendTimes } from './check-append-times.js';
import { noteLineLength } from './event-line-bytes.js';
import { encodeEventLine, eventType, maxSeq } from './journal-line.js';
import { JournalError, type AppendOptions, type EventPayload } from './journal-types.js';
import { maxEventLineBytes } from './oversized-line.js';

/** Events ready to be written: their lines (newline included) and the last event's time. */
export interface PreparedAppend {
  readonly events: SessionEvent[];
  readonly lines: Buffer[];
  readonly lastTimeMs: number;
}

/**
 * Builds the events and journal lines of an append at seqs `firstSeq..`, or the
 * `JournalError` that refuses it before anything is written: past the seq limit, bad
 * `times` (`invalid_argument`), or a line over the line limit (`too_large`).
 */
export function prepareAppend(
  sessionId: string,
  firstSeq: number,
  payloads: readonly EventPayload[],
  options?: AppendOptions,
): { ok: true; value: PreparedAppend } | { ok: false; error: JournalError } {
  if (firstSeq + payloads.length - 1 > maxSeq) {
    return fail('invalid_argument', `session ${sessionId} is full (seq limit)`);
  }
  const times = options?.times;
  const badTimes = times === undefined ? undefined : checkAppendTimes(times, payloads.length);
  if (badTimes !== undefined) {
    return fail('invalid_argument', `append to session ${sessionId}: ${badTimes}`);
  }
  const now = Date.now();
  const timesMs = payloads.map((_, i) => times?.[i]?.getTime() ?? now);
  const events = payloads.map((payload, i) =>
    create(SessionEventSchema, {
      seq: firstSeq + i,
      time: timestampFromMs(timesMs[i]!),
      payload,
    }),
  );
  const lines = events.map((e) => {
    const line = encodeEventLine(e);
    noteLineLength(e, line.length);
    return Buffer.from(line + '\n');
  });
  const tooLarge = lines.findIndex((line) => line.length - 1 > maxEventLineBytes);
  if (tooLarge !== -1) {
    const event = events[tooLarge]!;
    return fail(
      'too_large',
      `session ${sessionId}: event ${event.seq} (${eventType(event)}) would be a ` +
        `${lines[tooLarge]!.length - 1}-byte journal line, over the ${maxEventLineBytes}-byte ` +
        'limit: cut its content, or keep the content in a file and record a reference to it',
    );
  }
  return { ok: true, value: { events, lines, lastTimeMs: timesMs.at(-1) ?? now } };
}

function fail(kind: 'invalid_argument' | 'too_large', message: string) {
  return { ok: false as const, error: new JournalError(kind, message) };
}
