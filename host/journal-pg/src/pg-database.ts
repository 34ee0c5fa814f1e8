import pg from 'pg';
import { pgError } from './pg-error.js';

/** int8 (seqs, byte counts, times in ms) as JS numbers: every such value is below 2^53. */
const types = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === 20
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Options of `PgDatabase`. */
export interface PgDatabaseOptions {
  readonly url: string;
  /** The schema every table lives in (search_path of every connection). */
  readonly schema: string;
  /** Most connections of the pool. */
  readonly poolSize: number;
  /** How the database is named in messages (the URL without its password). */
  readonly location: string;
}

/**
 * The connection pool of one backend, every query mapped to `JournalError` by
 * `pgError`. Connections lost to a database restart are dropped by the pool and made
 * again on the next query.
 */
export class PgDatabase {
  readonly pool: pg.Pool;
  readonly location: string;
  /** The settings of one more connection (the listener's). */
  readonly clientConfig: pg.ClientConfig;

  constructor(options: PgDatabaseOptions) {
    this.location = options.location;
    this.clientConfig = {
      connectionString: options.url,
      // Every journal query is a primary-key point or range read. With the statistics of a
      // session loaded moments ago, the planner may pick a bitmap scan that sorts all of
      // a session's message starts before the LIMIT (O(session)); an index scan never does.
      options: `-c search_path=${options.schema} -c enable_bitmapscan=off`,
      types,
      connectionTimeoutMillis: 10_000,
      application_name: 'dsh',
    };
    this.pool = new pg.Pool({ ...this.clientConfig, max: options.poolSize });
    // An idle connection the server closed (a restart) errors here; the pool drops it.
    this.pool.on('error', () => undefined);
  }

  /** One statement; `action` names it in the error (`session s: cannot read`). */
  async query<R extends pg.QueryResultRow>(
    action: string,
    sql: string,
    params: readonly unknown[] = [],
  ): Promise<R[]> {
    try {
      return (await this.pool.query<R>(sql, params as unknown[])).rows;
    } catch (error) {
      throw pgError(error, { action, location: this.location });
    }
  }

  /** `work` on the pool (one statement per call, each its own transaction), errors mapped. */
  async run<T>(action: string, work: (pool: pg.Pool) => Promise<T>): Promise<T> {
    try {
      return await work(this.pool);
    } catch (error) {
      throw pgError(error, { action, location: this.location });
    }
  }

  /**
   * Runs `work` in a transaction on one connection: committed when it resolves, rolled
   * back when it throws (its error, mapped, is the one thrown).
   */
  async transaction<T>(action: string, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw pgError(error, { action, location: this.location });
    }
    let broken: Error | undefined;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch((lost: Error) => (broken = lost));
      throw pgError(error, { action, location: this.location });
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}
