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
  type ProjectionStates,
  type SessionFacts,
} from '@dsh/journal';
import { factsOf } from './pg-rows.js';

/** What an append needs besides its payloads. */
export interface AppendContext {
  readonly header: JournalHeader;
  readonly projections: ProjectionRegistry;
  /** The channel the commit notifies (`<sessionId> <length>` as payload). */
  readonly channel: string;
  /** This host's id, kept as the session's last writer. */
  readonly hostId: string;
}

interface LockedSession {
  readonly length: number;
  readonly bytes: number;
  readonly facts: JsonValue;
  readonly states: JsonValue;
}

/** A session's end as its last append left it: what the next append folds on. */
export interface AppendBase {
  readonly length: number;
  readonly bytes: number;
  readonly facts: SessionFacts;
  readonly states: ProjectionStates;
}

/** The events an append wrote and the end it left. */
export interface AppendResult {
  readonly events: SessionEvent[];
  readonly end: AppendBase;
}

/**
 * Appends at `options.expectedSeq` inside the caller's transaction: locks the session
 * row (so writers on every host take turns), refuses a seq other than its length with
 * `conflict`, then writes everything in one statement (`writeAppend`). The (session, seq)
 * primary key refuses a second writer at the same seq even past the lock.
 */
export async function appendInTransaction(
  client: pg.PoolClient,
  context: AppendContext,
  payloads: readonly EventPayload[],
  options: LogAppendOptions,
): Promise<AppendResult> {
  const id = context.header.sessionId;
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
  const base: AppendBase = {
    length: session.length,
    bytes: session.bytes,
    facts: factsOf(session),
    states: context.projections.restore(session.states),
  };
  const result = await writeAppend(client, context, base, payloads, options, false);
  return result!;
}

/**
 * Writes an append on `base` in one statement: the events, their message starts and
 * the checkpoints they complete, the row's new end, catalog facts and projection states,
 * and a notification of the channel, which PostgreSQL delivers on commit. With
 * `conditional`, nothing is written unless the row's length is still `base.length` (the
 * row lock of the UPDATE orders writers), and undefined tells that it was not: one round
 * trip for a writer whose base is its own last append.
 */
export async function writeAppend(
  client: pg.PoolClient | pg.Pool,
  context: AppendContext,
  base: AppendBase,
  payloads: readonly EventPayload[],
  options: LogAppendOptions,
  conditional: boolean,
): Promise<AppendResult | undefined> {
  const { header, projections } = context;
  const id = header.sessionId;
  const prepared = prepareAppend(id, base.length, payloads, options);
  if (!prepared.ok) throw prepared.error;
  const { events, lines, lastTimeMs } = prepared.value;
  if (events.length === 0) return { events: [], end: base };
  let { facts, states, bytes } = base;
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
  const length = base.length + events.length;
  const snapshot = factsSnapshot(facts) as { readonly usage: JsonValue };
  // The row is updated first; every insert runs only when it was (`FROM s`).
  const { rows } = await client.query<{ ok: number }>(
    `WITH s AS (
       UPDATE sessions SET length = $9, bytes = $10, updated_ms = $11, changed_at = now(),
         list_title = $12, list_model = $13, pending = $14, usage = $15, archived = $16,
         facts = $17, states = $18, writer_host = $22
       WHERE session_id = $1 AND length = $21
       RETURNING 1 AS ok
     ), e AS (
       INSERT INTO events (session_id, seq, type, end_bytes, line)
       SELECT $1, u.* FROM s, unnest($2::bigint[], $3::text[], $4::bigint[], $5::text[]) AS u
     ), m AS (
       INSERT INTO message_starts (session_id, seq) SELECT $1, unnest($6::bigint[]) FROM s
     ), c AS (
       INSERT INTO checkpoints (session_id, seq, states)
       SELECT $1, u.* FROM s, unnest($7::bigint[], $8::jsonb[]) AS u
     )
     SELECT s.ok, pg_notify($19, $20) FROM s`,
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
      base.length,
      context.hostId,
    ],
  );
  if (rows.length === 0) {
    if (conditional) return undefined;
    throw new JournalError('conflict', `session ${id}: another writer appended first`);
  }
  return { events, end: { length, bytes, facts, states } };
}
