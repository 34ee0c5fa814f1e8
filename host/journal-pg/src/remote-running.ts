import type { PgDatabase } from './pg-database.js';

/**
 * Which sessions other hosts run now: the owner records it on its lease row (`running`)
 * with a notification on the status channel (`<session> <host> <1|0>`), and every renewal
 * reads the rows back, so a lost notification or a dead owner's expired lease is put right
 * within a quarter of the lease time.
 */
export class RemoteRunning {
  /** Sessions another host runs now, with that host's id. */
  private readonly remote = new Map<string, string>();

  constructor(
    private readonly db: PgDatabase,
    private readonly hostId: string,
    private readonly channel: string,
    /** A session started or stopped running on another host. */
    private readonly onChange: (sessionId: string, running: boolean) => void,
  ) {}

  /**
   * Records whether this host runs the session now (on its lease row, with a notification
   * to every host), so every host shows it running. Best effort: a lost one is made good
   * by the next renewal's read.
   */
  announce(sessionId: string, running: boolean): void {
    void this.db
      .query(
        `session ${sessionId}: cannot record its running state`,
        `WITH l AS (
           UPDATE session_leases SET running = $3 WHERE session_id = $1 AND host_id = $2
           RETURNING session_id
         )
         SELECT pg_notify($4, $1 || ' ' || $2 || ' ' || $5) FROM l`,
        [sessionId, this.hostId, running, this.channel, running ? '1' : '0'],
      )
      .catch(() => undefined);
  }

  /** True while another host runs the session (its lease says so and has not expired). */
  has(sessionId: string): boolean {
    return this.remote.has(sessionId);
  }

  /** A notification on the status channel: `<session> <host> <1|0>`. */
  changed(payload: string): void {
    const [sessionId = '', hostId = '', flag] = payload.split(' ');
    if (hostId === this.hostId) return;
    if (flag === '1') this.setRemote(sessionId, hostId);
    else if (this.remote.get(sessionId) === hostId) this.setRemote(sessionId, undefined);
  }

  private setRemote(sessionId: string, hostId: string | undefined): void {
    const was = this.remote.has(sessionId);
    if (hostId === undefined) this.remote.delete(sessionId);
    else this.remote.set(sessionId, hostId);
    if (was !== (hostId !== undefined)) this.onChange(sessionId, hostId !== undefined);
  }

  /** Reads which sessions other hosts run: what notifications missed (a host that died) is put right. */
  async read(): Promise<void> {
    const rows = await this.db.query<{ session_id: string; host_id: string }>(
      'cannot read which sessions other hosts run',
      `SELECT session_id, host_id FROM session_leases
       WHERE host_id <> $1 AND running AND expires_at > now()`,
      [this.hostId],
    );
    const now = new Map(rows.map((r) => [r.session_id, r.host_id]));
    for (const id of [...this.remote.keys()]) if (!now.has(id)) this.setRemote(id, undefined);
    for (const [id, host] of now) this.setRemote(id, host);
  }
}
