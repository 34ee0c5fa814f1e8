import type { JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import type pg from 'pg';
import {
  checkpointInterval,
  eventType,
  factsSnapshot,
  factsTitle,
  foldFacts,
  JournalError,
  messageTypes,
  prepareAppend,
  type EventPayload,
  type JournalHeader,
  type LogAppendOptions,
  type ProjectionRegistry,
} from '@dsh/journal';
import { factsOf } from './pg-rows.js';

/** What an append needs besides its payloads. */
export interface AppendContext {
  readonly header: JournalHeader;
  readonly projections: ProjectionRegistry;
  /** The channel the commit notifies (`<sessionId> <length>` as payload). */
  readonly channel: string;
}

interface LockedSession {
  readonly length: number;
  readonly bytes: number;
  readonly facts: JsonValue;
  readonly states: JsonValue;
}

/**
 * Appends at `options.expectedSeq` inside the caller's transaction: locks the session
 * row (so writers on every host take turns), refuses a seq other than its length with
 * `conflict`, then in one statement writes the events, their message starts and the
 * checkpoints they complete, advances the row's end and catalog facts, and notifies the
 * channel, which PostgreSQL delivers on commit. The (session, seq) primary key refuses a
 * second writer at the same seq even past the lock.
 */
export async function appendInTransaction(
  client: pg.PoolClient,
  context: AppendContext,
  payloads: readonly EventPayload[],
  options: LogAppendOptions,
): Promise<SessionEvent[]> {
  const { header, projections } = context;
  const id = header.sessionId;
  const { rows } = await client.query<LockedSession>(
    'SELECT length, bytes, facts, states FROM sessions WHERE session_id = $1 FOR UPDATE',
    [id],
  );
  const session = rows[0];
  if (session === undefined) throw new JournalError('not_found', `session ${id} was removed`);
  if (options.expectedSeq !== session.length) {
    throw new JournalError(
      'conflict',
      `session ${id}: seq ${session.length} is next, not ${options.expectedSeq} ` +
        '(another writer appended first)',
    );
  }
  const prepared = prepareAppend(id, session.length, payloads, options);
  if (!prepared.ok) throw prepared.error;
  const { events, lines, lastTimeMs } = prepared.value;
  if (events.length === 0) return [];
  let facts = factsOf(session);
  let states = projections.restore(session.states);
  let bytes = session.bytes;
  const ends: number[] = [];
  const starts: number[] = [];
  const checkpointSeqs: number[] = [];
  const checkpointStates: string[] = [];
  for (const [i, event] of events.entries()) {
    bytes += lines[i]!.length;
    ends.push(bytes);
    if (messageTypes.has(eventType(event))) starts.push(event.seq);
    facts = foldFacts(facts, event);
    states = projections.fold(states, event);
    if ((event.seq + 1) % checkpointInterval === 0) {
      checkpointSeqs.push(event.seq + 1);
      checkpointStates.push(JSON.stringify(projections.snapshot(states)));
    }
  }
  const length = session.length + events.length;
  const snapshot = factsSnapshot(facts) as { readonly usage: JsonValue };
  await client.query(
    `WITH e AS (
       INSERT INTO events (session_id, seq, type, end_bytes, line)
       SELECT $1, * FROM unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[])
     ), m AS (
       INSERT INTO message_starts (session_id, seq) SELECT $1, unnest($6::bigint[])
     ), c AS (
       INSERT INTO checkpoints (session_id, seq, states)
       SELECT $1, * FROM unnest($7::bigint[], $8::jsonb[])
     ), s AS (
       UPDATE sessions SET length = $9, bytes = $10, updated_ms = $11, changed_at = now(),
         list_title = $12, list_model = $13, pending = $14, usage = $15, archived = $16,
         facts = $17, states = $18
       WHERE session_id = $1
     )
     SELECT pg_notify($19, $20)`,
    [
      id,
      events.map((e) => e.seq),
      events.map((e) => eventType(e)),
      ends,
      lines.map((line) => line.toString('utf8', 0, line.length - 1)),
      starts,
      checkpointSeqs,
      checkpointStates,
      length,
      bytes,
      lastTimeMs,
      factsTitle(facts, header.title),
      facts.model !== '' ? facts.model : header.model,
      facts.pending.length,
      JSON.stringify(snapshot.usage),
      facts.archived,
      JSON.stringify(snapshot),
      JSON.stringify(projections.snapshot(states)),
      context.channel,
      `${id} ${length}`,
    ],
  );
  return events;
}
