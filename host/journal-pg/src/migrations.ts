import type { PoolClient } from 'pg';
import { JournalError } from '@dsh/journal';

/** One schema change: applied once, in version order, inside its own transaction. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema of the PostgreSQL journal, as ordered migrations (host/journal-pg/README.md
 * describes each table). A released migration is never edited: a change is a new one.
 */
export const migrations: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions, events, message starts, checkpoints',
    sql: `
      CREATE TABLE sessions (
        session_id text PRIMARY KEY,
        format_version integer NOT NULL,
        cwd text NOT NULL,
        parent_id text NOT NULL,
        created_at text NOT NULL,
        model text NOT NULL,
        title text NOT NULL,
        origin text,
        length bigint NOT NULL DEFAULT 0,
        bytes bigint NOT NULL DEFAULT 0,
        updated_ms bigint NOT NULL,
        changed_at timestamptz NOT NULL DEFAULT now(),
        list_title text NOT NULL,
        list_model text NOT NULL,
        pending integer NOT NULL DEFAULT 0,
        usage jsonb,
        archived boolean NOT NULL DEFAULT false,
        facts jsonb NOT NULL,
        states jsonb NOT NULL
      );
      CREATE TABLE events (
        session_id text NOT NULL REFERENCES sessions ON DELETE CASCADE,
        seq bigint NOT NULL,
        type text NOT NULL,
        end_bytes bigint NOT NULL,
        line text NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE TABLE message_starts (
        session_id text NOT NULL REFERENCES sessions ON DELETE CASCADE,
        seq bigint NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
      CREATE TABLE checkpoints (
        session_id text NOT NULL REFERENCES sessions ON DELETE CASCADE,
        seq bigint NOT NULL,
        states jsonb NOT NULL,
        PRIMARY KEY (session_id, seq)
      );
    `,
  },
  {
    version: 2,
    name: 'hosts and the last writer of each session',
    sql: `
      CREATE TABLE hosts (
        host_id text PRIMARY KEY,
        name text NOT NULL,
        started_at timestamptz NOT NULL DEFAULT now(),
        beat_at timestamptz NOT NULL DEFAULT now()
      );
      ALTER TABLE sessions ADD COLUMN writer_host text;
    `,
  },
  {
    version: 3,
    name: 'session leases and the inputs forwarded to their owners',
    sql: `
      CREATE TABLE session_leases (
        session_id text PRIMARY KEY REFERENCES sessions ON DELETE CASCADE,
        host_id text NOT NULL,
        host_name text NOT NULL,
        taken_at timestamptz NOT NULL DEFAULT now(),
        expires_at timestamptz NOT NULL,
        running boolean NOT NULL DEFAULT false
      );
      CREATE INDEX session_leases_host ON session_leases (host_id);
      CREATE TABLE agent_inputs (
        input_id bigserial PRIMARY KEY,
        session_id text NOT NULL REFERENCES sessions ON DELETE CASCADE,
        from_host text NOT NULL,
        body jsonb NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        claimed_by text,
        answer jsonb,
        answered_at timestamptz
      );
      CREATE INDEX agent_inputs_open ON agent_inputs (session_id, input_id)
        WHERE answered_at IS NULL;
    `,
  },
];

/** Serializes migrations of hosts starting at once on one database (any fixed key). */
const migrationLockKey = 0x64736801;

/**
 * Brings the schema `schema` up to the latest migration: creates it and the
 * `schema_migrations` table when missing, then applies every missing migration in order,
 * each in a transaction that records its version, under an advisory lock so hosts
 * starting together apply each once. Refuses a database migrated by a newer host.
 * Resolves to the versions it applied.
 */
export async function migrate(client: PoolClient, schema: string): Promise<number[]> {
  const applied: number[] = [];
  await client.query('SELECT pg_advisory_lock($1)', [migrationLockKey]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version integer PRIMARY KEY,
         name text NOT NULL,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const { rows } = await client.query<{ version: number }>(
      'SELECT version FROM schema_migrations',
    );
    const have = new Set(rows.map((r) => r.version));
    const latest = migrations.at(-1)!.version;
    const newer = [...have].filter((v) => v > latest);
    if (newer.length > 0) {
      throw new JournalError(
        'unavailable',
        `the database schema ${schema} is at version ${Math.max(...newer)}, newer than this ` +
          `host's ${latest}: upgrade dsh on this host`,
      );
    }
    for (const migration of migrations) {
      if (have.has(migration.version)) continue;
      await client.query('BEGIN');
      try {
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
          migration.version,
          migration.name,
        ]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw error;
      }
      applied.push(migration.version);
    }
    return applied;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [migrationLockKey]);
  }
}

/** `name` as a quoted SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
