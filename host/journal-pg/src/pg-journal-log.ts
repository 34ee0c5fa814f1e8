import type { SessionEvent } from '@dsh/gen/events';
import {
  checkEventHead,
  decodeEventLine,
  eventFromHead,
  type EventHead,
  JournalError,
  type EventPayload,
  type JournalHead,
  type JournalHeader,
  type JournalLog,
  type LiveOptions,
  type LogAppendOptions,
  type LogReadOptions,
  type MessageStartsQuery,
  type ProjectionCheckpoint,
  type ProjectionRegistry,
} from '@dsh/journal';
import {
  appendInTransaction,
  writeAppend,
  type AppendBase,
  type AppendResult,
} from './pg-append.js';
import type { PgDatabase } from './pg-database.js';
import { isConnectionError } from './pg-error.js';
import { RecentEvents } from './recent-events.js';

/** What a log needs of its backend. */
export interface PgLogHost {
  readonly db: PgDatabase;
  readonly projections: ProjectionRegistry;
  /** The channel appends notify. */
  readonly eventsChannel: string;
  /** This host's id in the `hosts` table. */
  readonly hostId: string;
  /** True once the backend closed: appends fail with `read_only`, tails end. */
  readonly closed: boolean;
}

interface Tail {
  wake: (() => void) | undefined;
  dirty: boolean;
}

/** Most events one tail query reads. */
const tailChunk = 512;
/** A tail re-reads this often without a notification: a safety net, not the wake-up path. */
const tailPollMs = 5000;
/** A tail waits this long before reading again after the database failed it. */
const tailRetryMs = 250;

/**
 * One session's log in the database. Appends from this process run one at a time in
 * call order (each a transaction that locks the session row); tails read by seq from the
 * events table whenever a notification, a local commit or a reconnect wakes them, and
 * the events this process saw last are kept so tails on one log share one read.
 */
export class PgJournalLog implements JournalLog {
  readonly readOnly = false;
  private readonly tails = new Set<Tail>();
  private chain: Promise<unknown> = Promise.resolve();
  private known: number;
  private ended = false;
  private readonly recent = new RecentEvents();
  private refreshing: Promise<void> | undefined;
  /** The end this process's last append left, while no other append is known to follow it. */
  private base: AppendBase | undefined;

  constructor(
    private readonly host: PgLogHost,
    readonly header: JournalHeader,
    length: number,
  ) {
    this.known = length;
  }

  get tailCount(): number {
    return this.tails.size;
  }

  /** Appends still running, for `close` to wait for. */
  get pending(): Promise<unknown> {
    return this.chain;
  }

  private get id(): string {
    return this.header.sessionId;
  }

  async head(): Promise<JournalHead> {
    const [row] = await this.host.db.query<{ length: number; updated_ms: number }>(
      `session ${this.id}: cannot read its end`,
      'SELECT length, updated_ms FROM sessions WHERE session_id = $1',
      [this.id],
    );
    if (row === undefined) throw new JournalError('not_found', `session ${this.id} was removed`);
    this.known = Math.max(this.known, row.length);
    return { length: row.length, updatedAt: new Date(row.updated_ms) };
  }

  append(payloads: readonly EventPayload[], options: LogAppendOptions): Promise<SessionEvent[]> {
    const run = async (): Promise<SessionEvent[]> => {
      if (this.host.closed || this.ended) {
        throw new JournalError('read_only', `session ${this.id}: the store is closed`);
      }
      const base = this.base;
      this.base = undefined;
      const context = {
        header: this.header,
        projections: this.host.projections,
        channel: this.host.eventsChannel,
        hostId: this.host.hostId,
      };
      const action = `session ${this.id}: cannot append`;
      let result: AppendResult | undefined;
      // Appending on its own last append, a writer needs one round trip; when another
      // writer came in between (or on a first append) the locked transaction decides.
      if (base !== undefined && base.length === options.expectedSeq) {
        result = await this.host.db.run(action, (pool) =>
          writeAppend(pool, context, base, payloads, options, true),
        );
      }
      result ??= await this.host.db.transaction(action, (client) =>
        appendInTransaction(client, context, payloads, options),
      );
      this.base = result.end;
      const { events } = result;
      const last = events.at(-1);
      if (last !== undefined) {
        this.known = Math.max(this.known, last.seq + 1);
        this.recent.add(events);
        this.wake();
      }
      return events;
    };
    const result = this.chain.then(run, run);
    this.chain = result.catch(() => undefined);
    return result;
  }

  async read(from: number, to: number, options?: LogReadOptions): Promise<SessionEvent[]> {
    await this.checkRange(from, to);
    if (from === to) return [];
    const params: unknown[] = [this.id, from, to];
    const where: string[] = [];
    if (options?.maxBytes !== undefined) {
      params.push(options.maxBytes);
      where.push(
        `(seq = $2 OR end_bytes <= $${params.length} + coalesce((SELECT end_bytes FROM events ` +
          'WHERE session_id = $1 AND seq = $2 - 1), 0))',
      );
    }
    const projected = options?.fields === 'projections';
    const { reads } = this.host.projections;
    if (projected) {
      params.push([...reads.keys()]);
      where.push(`type = ANY($${params.length}::text[])`);
    }
    const rows = await this.host.db.query<{ seq: number; line: string }>(
      `session ${this.id}: cannot read events ${from}..${to}`,
      `SELECT seq, line FROM events WHERE session_id = $1 AND seq >= $2 AND seq < $3
       ${where.map((w) => `AND ${w}`).join(' ')} ORDER BY seq`,
      params,
    );
    if (!projected) return rows.map((row) => this.decode(row));
    // Only the payload fields a projection reads are decoded (a tool result's content is not).
    return rows.map((row) => {
      const head = this.lineHead(row);
      return eventFromHead(head, reads.get(head.type));
    });
  }

  async bytes(from: number, to: number): Promise<number> {
    await this.checkRange(from, to);
    if (from === to) return 0;
    const [row] = await this.host.db.query<{ n: number }>(
      `session ${this.id}: cannot count the bytes of events ${from}..${to}`,
      `SELECT (SELECT end_bytes FROM events WHERE session_id = $1 AND seq = $3 - 1)
         - coalesce((SELECT end_bytes FROM events WHERE session_id = $1 AND seq = $2 - 1), 0)
         AS n`,
      [this.id, from, to],
    );
    return row?.n ?? 0;
  }

  async messageStarts(query: MessageStartsQuery): Promise<number[]> {
    if (query.last <= 0) return [];
    const rows = await this.host.db.query<{ seq: number }>(
      `session ${this.id}: cannot read its message starts`,
      'SELECT seq FROM message_starts WHERE session_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3',
      [this.id, query.before, query.last],
    );
    return rows.map((r) => r.seq).reverse();
  }

  async checkpoint(seq: number): Promise<ProjectionCheckpoint> {
    const [row] = await this.host.db.query<{ seq: number; states: never }>(
      `session ${this.id}: cannot read its checkpoints`,
      'SELECT seq, states FROM checkpoints WHERE session_id = $1 AND seq <= $2 ORDER BY seq DESC LIMIT 1',
      [this.id, seq],
    );
    const { projections } = this.host;
    if (row === undefined) return { seq: 0, states: projections.initial() };
    return { seq: row.seq, states: projections.restore(row.states) };
  }

  tail(from: number, options: LiveOptions): AsyncIterable<readonly SessionEvent[]> {
    return { [Symbol.asyncIterator]: () => this.runTail(from, options.signal) };
  }

  /** Wakes every tail to read from the table (an append here or elsewhere, a reconnect). */
  wake(): void {
    for (const tail of this.tails) wakeTail(tail);
  }

  /** Ends every tail and refuses appends: the session was removed or the backend closed. */
  end(): void {
    this.ended = true;
    this.recent.clear();
    this.wake();
  }

  private async *runTail(
    from: number,
    signal: AbortSignal,
  ): AsyncGenerator<readonly SessionEvent[], void, undefined> {
    if (signal.aborted || this.ended || this.host.closed) return;
    const tail: Tail = { wake: undefined, dirty: false };
    const onAbort = (): void => wakeTail(tail);
    this.tails.add(tail);
    signal.addEventListener('abort', onAbort, { once: true });
    const stopped = (): boolean => signal.aborted || this.ended || this.host.closed;
    try {
      // Live from here: every event committed after this read is at or past `next`.
      let next = Math.max(from, (await this.head()).length);
      yield [];
      while (!stopped()) {
        tail.dirty = false;
        let events: readonly SessionEvent[];
        try {
          events = await this.eventsFrom(next);
        } catch (error) {
          if (
            !(error instanceof JournalError && error.kind === 'unavailable') &&
            !isConnectionError(error)
          ) {
            throw error;
          }
          await sleep(tail, tailRetryMs);
          continue;
        }
        if (stopped()) return;
        if (events.length > 0) {
          next = events.at(-1)!.seq + 1;
          yield events;
        } else if (!tail.dirty) {
          await sleep(tail, tailPollMs);
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.tails.delete(tail);
    }
  }

  /** Durable events from `seq` on (at most a chunk): from the shared recent ones, or the table. */
  private async eventsFrom(seq: number): Promise<readonly SessionEvent[]> {
    const kept = this.recent.from(seq);
    if (kept !== undefined && kept.length > 0) return kept;
    if (seq === this.recent.end && this.recent.end > 0) {
      // Tails caught up share one read of what came next.
      this.refreshing ??= this.readAfter(seq)
        .then((events) => this.recent.add(events))
        .finally(() => (this.refreshing = undefined));
      await this.refreshing;
      return this.recent.from(seq) ?? this.readAfter(seq);
    }
    const events = await this.readAfter(seq);
    this.recent.add(events);
    return events;
  }

  private async readAfter(seq: number): Promise<SessionEvent[]> {
    const rows = await this.host.db.query<{ seq: number; line: string }>(
      `session ${this.id}: cannot read events from ${seq}`,
      'SELECT seq, line FROM events WHERE session_id = $1 AND seq >= $2 ORDER BY seq LIMIT $3',
      [this.id, seq, tailChunk],
    );
    const events = rows.map((row) => this.decode(row));
    const last = events.at(-1);
    if (last !== undefined) this.known = Math.max(this.known, last.seq + 1);
    return events;
  }

  private decode(row: { seq: number; line: string }): SessionEvent {
    const decoded = decodeEventLine(row.line, row.seq);
    if (!decoded.ok) throw this.corrupt(row.seq, decoded.error);
    return decoded.value;
  }

  /** The checked head of a row's line, its payload not decoded. */
  private lineHead(row: { seq: number; line: string }): EventHead {
    let parsed: unknown;
    try {
      parsed = JSON.parse(row.line);
    } catch (error) {
      throw this.corrupt(row.seq, (error as Error).message);
    }
    const head = checkEventHead(parsed, row.seq);
    if (!head.ok) throw this.corrupt(row.seq, head.error);
    return head.value;
  }

  private corrupt(seq: number, reason: string): JournalError {
    return new JournalError('corrupt', `session ${this.id}: event ${seq}: ${reason}`, {
      sessionId: this.id,
      line: seq + 2,
    });
  }

  /** Refuses a range outside 0..length (reading the end only when the known one is short). */
  private async checkRange(from: number, to: number): Promise<void> {
    const inside = (end: number) =>
      Number.isInteger(from) && Number.isInteger(to) && 0 <= from && from <= to && to <= end;
    if (inside(this.known)) return;
    if (Number.isInteger(to) && to > this.known) await this.head();
    if (!inside(this.known)) {
      throw new JournalError(
        'invalid_argument',
        `session ${this.id}: events ${from}..${to} are outside 0..${this.known}`,
      );
    }
  }
}

function wakeTail(tail: Tail): void {
  tail.dirty = true;
  const resolve = tail.wake;
  tail.wake = undefined;
  resolve?.();
}

/** Waits `ms` or until the tail is woken, whichever comes first. */
function sleep(tail: Tail, ms: number): Promise<void> {
  if (tail.dirty) return Promise.resolve();
  return new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      tail.wake = undefined;
      resolve();
    }
    tail.wake = done;
  });
}
