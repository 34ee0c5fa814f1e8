import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import type { PgDatabase } from './pg-database.js';

/** How often a host marks itself alive in `hosts`. */
const heartbeatMs = 10_000;
/** A host whose mark is older than this is taken for dead. */
export const hostDeadAfterMs = 3 * heartbeatMs;

/**
 * This backend's row in `hosts`: added on start, marked alive every 10 s, removed on a
 * clean stop. Appends record its id as the session's `writer_host`, so another host can
 * tell whether the last writer of a session is still alive.
 */
export class HostRegistry {
  readonly hostId = randomUUID();
  /** How messages name this host: its machine and process. */
  readonly name = `${hostname()} pid ${process.pid}`;
  private heartbeat: NodeJS.Timeout | undefined;

  constructor(private readonly db: PgDatabase) {}

  /** Adds this host to `hosts` and keeps its mark fresh until `close`. */
  async register(): Promise<void> {
    await this.db.query(
      'cannot register this host',
      'INSERT INTO hosts (host_id, name) VALUES ($1, $2)',
      [this.hostId, this.name],
    );
    this.heartbeat = setInterval(() => {
      void this.db
        .query(
          'cannot mark this host alive',
          'UPDATE hosts SET beat_at = now() WHERE host_id = $1',
          [this.hostId],
        )
        .catch(() => undefined);
    }, heartbeatMs);
    this.heartbeat.unref();
  }

  /**
   * The name of another host that is alive (marked within `hostDeadAfterMs`) and was the
   * last to append to the session; undefined when there is none.
   */
  async liveWriter(sessionId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ name: string }>(
      `session ${sessionId}: cannot read its last writer`,
      `SELECT h.name FROM sessions s JOIN hosts h ON h.host_id = s.writer_host
       WHERE s.session_id = $1 AND h.host_id <> $2
         AND h.beat_at > now() - make_interval(secs => $3)`,
      [sessionId, this.hostId, hostDeadAfterMs / 1000],
    );
    return row?.name;
  }

  /** Stops the marks and removes the row: a host that stopped cleanly writes nothing more. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    await this.db
      .query('cannot unregister this host', 'DELETE FROM hosts WHERE host_id = $1', [this.hostId])
      .catch(() => undefined);
  }
}
