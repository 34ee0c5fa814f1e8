import { randomBytes } from 'node:crypto';
import {
  createProjectionRegistry,
  factsSnapshot,
  formatVersion,
  isJournalTime,
  JournalError,
  batchUpdates,
  LiveFeed,
  noFacts,
  parseSessionId,
  type CreateJournal,
  type JournalBackend,
  type JournalHeader,
  type JournalSummary,
  type LiveOptions,
  type ProjectionRegistry,
  type StoreChange,
} from '@dsh/journal';
import { HostRegistry } from './host-registry.js';
import { migrate } from './migrations.js';
import { PgDatabase } from './pg-database.js';
import { pgError, redactUrl } from './pg-error.js';
import { PgJournalLog } from './pg-journal-log.js';
import { PgListener } from './pg-listener.js';
import { PgSessionLeases } from './pg-session-leases.js';
import { headerOf, sessionColumns, summaryOf, type SessionRow } from './pg-rows.js';

/** Options of `createPgJournalBackend`. */
export interface PgJournalOptions {
  /** A PostgreSQL connection string: `postgres://user:password@host:port/database`. */
  readonly url: string;
  /** The schema the tables live in, created when missing (default `dsh`). */
  readonly schema?: string;
  /** The projections whose checkpoints the tables keep (the standard ones unless given). */
  readonly projections?: ProjectionRegistry;
  /** Most connections of the pool (default 10; the listener takes one more). */
  readonly poolSize?: number;
  /** How long a session's runtime lease lasts without renewal (default 15 s, at least 1 s). */
  readonly leaseMs?: number;
}

/** The schema name when none is given. */
export const defaultSchema = 'dsh';

/**
 * Opens the PostgreSQL backend: connects, applies the missing migrations, and LISTENs
 * for the notifications of every host on the database. Rejects with `unavailable`
 * (naming DSH_STORE / --store) when the database cannot be reached.
 */
export async function createPgJournalBackend(options: PgJournalOptions): Promise<PgJournalBackend> {
  const schema = options.schema ?? defaultSchema;
  if (!/^[a-z_][a-z0-9_]{0,40}$/.test(schema)) {
    throw new JournalError(
      'invalid_argument',
      `schema ${JSON.stringify(schema)}: use lower-case letters, digits and _ (at most 41)`,
    );
  }
  const location = redactUrl(options.url);
  const db = new PgDatabase({
    url: options.url,
    schema,
    poolSize: options.poolSize ?? 10,
    location,
  });
  try {
    const client = await db.pool.connect();
    try {
      await migrate(client, schema);
    } finally {
      client.release();
    }
  } catch (error) {
    await db.close();
    throw pgError(error, { action: 'cannot open the journal store', location });
  }
  const backend = new PgJournalBackend(
    db,
    schema,
    options.projections ?? createProjectionRegistry(),
    options.leaseMs,
  );
  try {
    await backend.listener.start();
    await backend.hosts.register();
  } catch (error) {
    await backend.listener.close();
    await db.close();
    throw pgError(error, { action: 'cannot listen for changes', location });
  }
  return backend;
}

/** The PostgreSQL backend: one row per session, one row per event keyed by (session, seq). */
export class PgJournalBackend implements JournalBackend {
  readonly listener: PgListener;
  readonly eventsChannel: string;
  private readonly sessionsChannel: string;
  private readonly logs = new Map<string, PgJournalLog>();
  private readonly opening = new Map<string, Promise<PgJournalLog>>();
  private readonly changes = new LiveFeed<StoreChange>();
  private readonly noteUpdated = batchUpdates(this.changes);
  /** Sessions this backend listed or heard of, to report removals missed while disconnected. */
  private readonly seen = new Set<string>();
  private readonly summaries = new Map<string, { key: string; summary: JournalSummary }>();
  closed = false;
  /** This backend's row in `hosts`: the last writer of the sessions it appends to. */
  readonly hosts: HostRegistry;
  /** The runtime leases of this host and the input forwarded to their owners. */
  readonly leases: PgSessionLeases;
  private readonly inputsChannel: string;
  private readonly answersChannel: string;
  private readonly statusChannel: string;

  constructor(
    readonly db: PgDatabase,
    readonly schema: string,
    readonly projections: ProjectionRegistry,
    leaseMs?: number,
  ) {
    this.hosts = new HostRegistry(db);
    this.eventsChannel = `${schema}.events`;
    this.sessionsChannel = `${schema}.sessions`;
    this.inputsChannel = `${schema}.inputs`;
    this.answersChannel = `${schema}.answers`;
    this.statusChannel = `${schema}.running`;
    this.leases = new PgSessionLeases(
      db,
      { id: this.hosts.hostId, name: this.hosts.name },
      { inputs: this.inputsChannel, answers: this.answersChannel, status: this.statusChannel },
      leaseMs === undefined ? {} : { leaseMs },
    );
    this.listener = new PgListener({
      client: db.clientConfig,
      channels: [
        this.eventsChannel,
        this.sessionsChannel,
        this.inputsChannel,
        this.answersChannel,
        this.statusChannel,
      ],
      onNotify: (channel, payload) => this.notified(channel, payload),
      onReconnect: (lostAt) => void this.resync(lostAt),
      onError: (error) =>
        console.error(
          `dsh: ${db.location}: cannot listen for changes, retrying: ${(error as Error).message}`,
        ),
    });
  }

  get hostId(): string {
    return this.hosts.hostId;
  }

  get location(): string {
    return `${this.db.location} (schema ${this.schema})`;
  }

  async list(): Promise<JournalSummary[]> {
    const rows = await this.db.query<SessionRow>(
      'cannot list the sessions',
      `SELECT ${sessionColumns} FROM sessions`,
    );
    return rows.map((row) => this.summarize(row));
  }

  async summary(sessionId: string): Promise<JournalSummary | undefined> {
    const id = validId(sessionId, 'session');
    const [row] = await this.db.query<SessionRow>(
      `session ${id}: cannot read its summary`,
      `SELECT ${sessionColumns} FROM sessions WHERE session_id = $1`,
      [id],
    );
    return row === undefined ? undefined : this.summarize(row);
  }

  async remove(sessionId: string): Promise<string> {
    const id = validId(sessionId, 'session');
    await this.opening.get(id)?.catch(() => undefined);
    const rows = await this.db.query(
      `session ${id}: cannot remove it`,
      `WITH d AS (DELETE FROM sessions WHERE session_id = $1 RETURNING session_id)
       SELECT pg_notify($2, 'removed ' || session_id) FROM d`,
      [id, this.sessionsChannel],
    );
    if (rows.length === 0) throw new JournalError('not_found', `session ${id} does not exist`);
    this.dropLog(id);
    return `${this.location}: deleted with its events`;
  }

  async open(sessionId: string): Promise<PgJournalLog> {
    const id = validId(sessionId, 'session');
    if (this.closed) throw new JournalError('read_only', `session ${id}: the store is closed`);
    const known = this.logs.get(id) ?? this.opening.get(id);
    if (known !== undefined) return known;
    const pending = this.load(id).finally(() => this.opening.delete(id));
    this.opening.set(id, pending);
    return pending;
  }

  async create(init: CreateJournal): Promise<PgJournalLog> {
    if (this.closed) throw new JournalError('read_only', 'the store is closed');
    const parentId = init.parentId ?? '';
    if (parentId !== '') {
      const parent = validId(parentId, 'parent session');
      if ((await this.summary(parent)) === undefined) {
        throw new JournalError('not_found', `parent session ${parent} does not exist`);
      }
    }
    const given = init.sessionId !== undefined && init.sessionId !== '';
    const created =
      init.createdAt !== undefined && isJournalTime(init.createdAt) ? init.createdAt : new Date();
    for (let attempt = 0; ; attempt += 1) {
      const id = given ? validId(init.sessionId!, 'session') : newSessionId();
      const header: JournalHeader = {
        formatVersion,
        sessionId: id,
        cwd: init.cwd,
        parentId,
        createdAt: created.toISOString(),
        model: init.model ?? '',
        title: init.title ?? '',
        ...(init.origin === undefined || init.origin === '' ? {} : { origin: init.origin }),
      };
      if (await this.insert(header, created.getTime())) {
        this.seen.add(id);
        const log = new PgJournalLog(this, header, 0);
        this.logs.set(id, log);
        return log;
      }
      if (given || attempt >= 4) {
        throw new JournalError('exists', `session ${id} already exists: pick another id`);
      }
    }
  }

  watch(options: LiveOptions): AsyncIterable<readonly StoreChange[]> {
    return this.changes.subscribe(options.signal);
  }

  /**
   * The name of another host that is alive and was the last to append to the session
   * (`HostRegistry.liveWriter`): a turn it left open may be running there, so it is not
   * this host's to close.
   */
  liveWriter(sessionId: string): Promise<string | undefined> {
    return this.hosts.liveWriter(validId(sessionId, 'session'));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await Promise.allSettled([...this.opening.values()]);
    await Promise.allSettled([...this.logs.values()].map((log) => log.pending));
    await this.leases.close();
    this.closed = true;
    await this.hosts.close();
    for (const log of this.logs.values()) log.end();
    this.logs.clear();
    this.changes.close();
    await this.listener.close();
    await this.db.close();
  }

  private async load(id: string): Promise<PgJournalLog> {
    const [row] = await this.db.query<SessionRow>(
      `session ${id}: cannot open it`,
      `SELECT ${sessionColumns} FROM sessions WHERE session_id = $1`,
      [id],
    );
    if (row === undefined) throw new JournalError('not_found', `session ${id} does not exist`);
    const log = this.logs.get(id) ?? new PgJournalLog(this, headerOf(row), row.length);
    this.logs.set(id, log);
    return log;
  }

  /** Inserts a session row with its seq-0 checkpoint; false when the id is taken. */
  private async insert(header: JournalHeader, createdMs: number): Promise<boolean> {
    const { projections } = this;
    const states = JSON.stringify(projections.snapshot(projections.initial()));
    const rows = await this.db.query(
      `session ${header.sessionId}: cannot create it`,
      `WITH s AS (
         INSERT INTO sessions (session_id, format_version, cwd, parent_id, created_at, model,
           title, origin, updated_ms, list_title, list_model, facts, states, writer_host)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $7, $6, $10, $11, $13)
         ON CONFLICT (session_id) DO NOTHING
         RETURNING session_id
       ), c AS (
         INSERT INTO checkpoints (session_id, seq, states) SELECT session_id, 0, $11 FROM s
       )
       SELECT pg_notify($12, 'added ' || session_id) FROM s`,
      [
        header.sessionId,
        header.formatVersion,
        header.cwd,
        header.parentId,
        header.createdAt,
        header.model,
        header.title,
        header.origin ?? null,
        createdMs,
        JSON.stringify(factsSnapshot(noFacts)),
        states,
        this.sessionsChannel,
        this.hostId,
      ],
    );
    return rows.length === 1;
  }

  /** The summary of a row: the same object while the row did not change (the server keeps its wire form). */
  private summarize(row: SessionRow): JournalSummary {
    this.seen.add(row.session_id);
    const key = `${row.length}:${row.changed_at.getTime()}`;
    const kept = this.summaries.get(row.session_id);
    if (kept !== undefined && kept.key === key) return kept.summary;
    const summary = summaryOf(row, this.logs.get(row.session_id)?.header);
    this.summaries.set(row.session_id, { key, summary });
    return summary;
  }

  private notified(channel: string, payload: string): void {
    const space = payload.indexOf(' ');
    if (channel === this.inputsChannel) this.leases.inputStored(payload);
    else if (channel === this.answersChannel) this.leases.answered(payload);
    else if (channel === this.statusChannel) this.leases.running.changed(payload);
    else if (channel === this.eventsChannel) {
      const id = payload.slice(0, space);
      this.logs.get(id)?.wake();
      this.noteUpdated(id);
    } else if (channel === this.sessionsChannel) {
      const kind = payload.slice(0, space);
      const id = payload.slice(space + 1);
      if (kind === 'added') {
        this.seen.add(id);
        this.changes.push([{ kind: 'added', sessionId: id }]);
      } else if (kind === 'removed') {
        this.dropLog(id);
        this.changes.push([{ kind: 'removed', sessionId: id }]);
      }
    }
  }

  /**
   * After the listener reconnected: wakes every tail (they read by seq from the table) and
   * reports the sessions that changed, appeared or went away while it was disconnected.
   */
  private async resync(lostAt: Date): Promise<void> {
    for (const log of this.logs.values()) log.wake();
    this.leases.wake();
    const rows = await this.db
      .query<{ session_id: string; changed: boolean }>(
        'cannot list the sessions after a reconnect',
        `SELECT session_id, changed_at >= $1 AS changed FROM sessions`,
        [new Date(lostAt.getTime() - 1000)],
      )
      .catch(() => undefined);
    if (rows === undefined || this.closed) return;
    const present = new Set(rows.map((r) => r.session_id));
    const changes: StoreChange[] = [];
    for (const id of this.seen) {
      if (!present.has(id)) {
        this.dropLog(id);
        changes.push({ kind: 'removed', sessionId: id });
      }
    }
    for (const row of rows) {
      if (!this.seen.has(row.session_id))
        changes.push({ kind: 'added', sessionId: row.session_id });
      else if (row.changed) changes.push({ kind: 'updated', sessionId: row.session_id });
      this.seen.add(row.session_id);
    }
    this.changes.push(changes);
  }

  private dropLog(id: string): void {
    this.seen.delete(id);
    this.summaries.delete(id);
    const log = this.logs.get(id);
    this.logs.delete(id);
    log?.end();
  }
}

function validId(id: string, what: string): string {
  const parsed = parseSessionId(id);
  if (!parsed.ok) throw new JournalError('invalid_argument', `${what}: ${parsed.error}`);
  return parsed.value;
}

function newSessionId(): string {
  return `s-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}
