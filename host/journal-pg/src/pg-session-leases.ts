import type { JsonValue } from '@bufbuild/protobuf';
import { JournalError } from '@dsh/journal';
import type { PgDatabase } from './pg-database.js';
import { RemoteRunning } from './remote-running.js';

/** What the owner of a session answered to a forwarded input (or why nobody could). */
export type ForwardedAnswer =
  | { readonly ok: JsonValue }
  | { readonly error: { readonly name: string; readonly kind: string; readonly message: string } };

/** Whether this host holds a session's lease, or who does. */
export type LeaseClaim =
  { readonly owned: true } | { readonly owned: false; readonly owner: string };

/** What the agent runtime of this host does with the sessions whose lease it holds. */
export interface LeaseHandlers {
  /** Runs an input another host stored for a session this host owns. */
  input(sessionId: string, body: JsonValue): Promise<ForwardedAnswer>;
  /**
   * This host took the lease of a session nobody runs (its owner stopped, or input waits
   * for it): open it, which closes a turn the stopped owner left open.
   */
  adopted(sessionId: string): void;
  /** Another host holds a lease this host had (a renewal found it taken): stop running it. */
  lost(sessionId: string): void;
  /** A session started or stopped running on another host. */
  status(sessionId: string, running: boolean): void;
}

/** Lease timings; tests shorten them. */
export interface LeaseTimings {
  /** How long a lease lasts without renewal (default 15 s). */
  readonly leaseMs: number;
}

/** The lease time when none is given, and its floor. */
export const defaultLeaseMs = 15_000;
const minLeaseMs = 1000;

/** How long `forward` waits for an unclaimed input before taking it back. */
const forwardTimeoutMs = 60_000;

/** Answered inputs are deleted by their sender; leftovers of a sender that stopped go after this. */
const answeredKeptMs = 10 * 60_000;

/**
 * The runtime leases of one host over the `session_leases` and `agent_inputs` tables. A
 * host owns a session while it holds its row; it renews its rows every quarter of the
 * lease time and every host sweeps the expired ones, so the session of a host that died
 * goes to another within one lease time and a quarter. Input sent to a host that does
 * not own the session is stored in `agent_inputs` and the owner, woken by a notification
 * (and by every renewal), runs it in order and stores the answer the sender returns.
 */
export class PgSessionLeases {
  private readonly owned = new Set<string>();
  /** Which sessions other hosts run now (`announce`, `runningElsewhere`). */
  readonly running: RemoteRunning;
  private readonly waiters = new Map<number, () => void>();
  private readonly draining = new Map<string, Promise<void>>();
  private handlers: LeaseHandlers | undefined;
  private timer: NodeJS.Timeout | undefined;
  private ticks = 0;
  private closed = false;
  readonly leaseMs: number;

  constructor(
    private readonly db: PgDatabase,
    private readonly host: { readonly id: string; readonly name: string },
    private readonly channels: {
      readonly inputs: string;
      readonly answers: string;
      readonly status: string;
    },
    timings: Partial<LeaseTimings> = {},
  ) {
    this.leaseMs = Math.max(minLeaseMs, timings.leaseMs ?? defaultLeaseMs);
    this.running = new RemoteRunning(db, host.id, channels.status, (sessionId, running) =>
      this.handlers?.status(sessionId, running),
    );
  }

  /** Tells every host whether this host runs the session now (`RemoteRunning.announce`). */
  announce(sessionId: string, running: boolean): void {
    this.running.announce(sessionId, running);
  }

  /** True while another host runs the session. */
  runningElsewhere(sessionId: string): boolean {
    return this.running.has(sessionId);
  }

  /** Starts renewing, sweeping and running forwarded inputs with `handlers`. */
  serve(handlers: LeaseHandlers): void {
    this.handlers = handlers;
    if (this.timer !== undefined) return;
    this.timer = setInterval(() => void this.tick(), Math.round(this.leaseMs / 4));
    this.timer.unref();
  }

  /** Takes the session's lease when it is free, expired or already this host's, else names its owner. */
  async claim(sessionId: string): Promise<LeaseClaim> {
    const rows = await this.db.query<{ host_id: string; host_name: string }>(
      `session ${sessionId}: cannot take its lease`,
      `INSERT INTO session_leases AS l (session_id, host_id, host_name, expires_at)
       VALUES ($1, $2, $3, now() + make_interval(secs => $4))
       ON CONFLICT (session_id) DO UPDATE
         SET host_id = EXCLUDED.host_id, host_name = EXCLUDED.host_name,
             taken_at = CASE WHEN l.host_id = EXCLUDED.host_id THEN l.taken_at ELSE now() END,
             expires_at = EXCLUDED.expires_at,
             running = l.running AND l.host_id = EXCLUDED.host_id
         WHERE l.host_id = EXCLUDED.host_id OR l.expires_at < now()
       RETURNING host_id, host_name`,
      [sessionId, this.host.id, this.host.name, this.leaseMs / 1000],
    );
    if (rows.length === 1) {
      this.owned.add(sessionId);
      return { owned: true };
    }
    this.owned.delete(sessionId);
    const [holder] = await this.db.query<{ host_name: string }>(
      `session ${sessionId}: cannot read its lease`,
      'SELECT host_name FROM session_leases WHERE session_id = $1',
      [sessionId],
    );
    // Released between the two statements: the next claim takes it.
    if (holder === undefined) return this.claim(sessionId);
    return { owned: false, owner: holder.host_name };
  }

  /** The name of another host whose lease on the session has not expired, if any. */
  async holder(sessionId: string): Promise<string | undefined> {
    const [row] = await this.db.query<{ host_name: string }>(
      `session ${sessionId}: cannot read its lease`,
      `SELECT host_name FROM session_leases
       WHERE session_id = $1 AND host_id <> $2 AND expires_at > now()`,
      [sessionId, this.host.id],
    );
    return row?.host_name;
  }

  /**
   * Gives the lease back (the session is idle here); kept, and its inputs run, when input
   * is waiting for it. Resolves to whether it was released.
   */
  async release(sessionId: string): Promise<boolean> {
    const rows = await this.db.query(
      `session ${sessionId}: cannot release its lease`,
      `WITH d AS (
         DELETE FROM session_leases l WHERE session_id = $1 AND host_id = $2
           AND NOT EXISTS (SELECT 1 FROM agent_inputs i
                           WHERE i.session_id = $1 AND i.answered_at IS NULL)
         RETURNING session_id
       )
       SELECT pg_notify($3, session_id || ' ' || $2 || ' 0') FROM d`,
      [sessionId, this.host.id, this.channels.status],
    );
    if (rows.length === 1) {
      this.owned.delete(sessionId);
      return true;
    }
    void this.drain(sessionId);
    return false;
  }

  /**
   * Stores an input for the session's owner and resolves with its answer. While it waits
   * it takes the lease itself when nobody holds it (the owner released or stopped), so the
   * input never waits for a host that is gone. An input no host claimed within 60 s is
   * taken back and refused with `unavailable`.
   */
  async forward(sessionId: string, body: JsonValue): Promise<ForwardedAnswer> {
    const [row] = await this.db.query<{ input_id: number }>(
      `session ${sessionId}: cannot store input for its owner`,
      `WITH i AS (
         INSERT INTO agent_inputs (session_id, from_host, body) VALUES ($1, $2, $3)
         RETURNING input_id
       )
       SELECT input_id, pg_notify($4, $1) FROM i`,
      [sessionId, this.host.id, JSON.stringify(body), this.channels.inputs],
    );
    const id = Number(row!.input_id);
    const deadline = Date.now() + forwardTimeoutMs;
    try {
      for (;;) {
        // Listening before looking, so an answer notified in between is not missed.
        let wake!: () => void;
        const woken = new Promise<void>((resolve) => (wake = resolve));
        this.waiters.set(id, wake);
        const answer = await this.answerOf(sessionId, id);
        if (answer !== undefined) return answer;
        if (this.closed) {
          throw new JournalError('unavailable', `session ${sessionId}: this host is stopping`);
        }
        if ((await this.claim(sessionId)).owned) this.adopt(sessionId);
        else if (Date.now() > deadline && (await this.takeBack(id))) {
          throw new JournalError(
            'unavailable',
            `session ${sessionId}: its owning host did not take the input within ` +
              `${forwardTimeoutMs / 1000} s, so nothing was done: send it again`,
          );
        }
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          woken,
          new Promise<void>((resolve) => {
            timer = setTimeout(resolve, Math.min(1000, this.leaseMs / 4));
          }),
        ]);
        clearTimeout(timer);
      }
    } finally {
      this.waiters.delete(id);
    }
  }

  /** A notification on the inputs channel: input for `sessionId` was stored. */
  inputStored(sessionId: string): void {
    if (this.owned.has(sessionId)) void this.drain(sessionId);
  }

  /** A notification on the answers channel: the input `inputId` was answered. */
  answered(inputId: string): void {
    this.waiters.get(Number(inputId))?.();
  }

  /** After the listener reconnected: every owned session's inputs and every waiter look again. */
  wake(): void {
    for (const id of this.owned) void this.drain(id);
    for (const waiter of this.waiters.values()) waiter();
  }

  /** Stops renewing and gives back every lease (the agent already stopped its turns). */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    for (const waiter of this.waiters.values()) waiter();
    await Promise.allSettled(this.draining.values());
    await this.db
      .query('cannot release the leases', 'DELETE FROM session_leases WHERE host_id = $1', [
        this.host.id,
      ])
      .catch(() => undefined);
    this.owned.clear();
  }

  private async answerOf(sessionId: string, id: number): Promise<ForwardedAnswer | undefined> {
    const [row] = await this.db.query<{ answer: ForwardedAnswer | null }>(
      `session ${sessionId}: cannot read the answer of its owner`,
      // The sender deletes its answered row: nothing else reads it.
      `WITH d AS (DELETE FROM agent_inputs WHERE input_id = $1 AND answered_at IS NOT NULL
                  RETURNING answer)
       SELECT answer FROM d`,
      [id],
    );
    return row?.answer ?? undefined;
  }

  /** Deletes an input nobody claimed; false when an owner is running it. */
  private async takeBack(id: number): Promise<boolean> {
    const rows = await this.db.query(
      'cannot take back an input',
      'DELETE FROM agent_inputs WHERE input_id = $1 AND claimed_by IS NULL RETURNING input_id',
      [id],
    );
    return rows.length === 1;
  }

  private adopt(sessionId: string): void {
    this.owned.add(sessionId);
    this.handlers?.adopted(sessionId);
    void this.drain(sessionId);
  }

  /** Runs the session's waiting inputs in order, one drain per session at a time. */
  private drain(sessionId: string): Promise<void> {
    const running = this.draining.get(sessionId);
    if (running !== undefined) {
      // Input stored while a drain runs is picked up by one more pass after it.
      const again = running.then(() => this.drain(sessionId));
      return again;
    }
    const pass = this.drainOnce(sessionId)
      .catch((error: unknown) => {
        if (!this.closed) console.error(`dsh: session ${sessionId}: forwarded input:`, error);
      })
      .finally(() => this.draining.delete(sessionId));
    this.draining.set(sessionId, pass);
    return pass;
  }

  private async drainOnce(sessionId: string): Promise<void> {
    const handlers = this.handlers;
    if (handlers === undefined) return;
    await this.answerOrphans(sessionId);
    for (;;) {
      if (this.closed || !this.owned.has(sessionId)) return;
      const [input] = await this.db.query<{ input_id: number; body: JsonValue }>(
        `session ${sessionId}: cannot take its forwarded input`,
        `UPDATE agent_inputs SET claimed_by = $2
         WHERE input_id = (
           SELECT input_id FROM agent_inputs
           WHERE session_id = $1 AND claimed_by IS NULL AND answered_at IS NULL
           ORDER BY input_id LIMIT 1 FOR UPDATE SKIP LOCKED)
         AND EXISTS (SELECT 1 FROM session_leases WHERE session_id = $1 AND host_id = $2)
         RETURNING input_id, body`,
        [sessionId, this.host.id],
      );
      if (input === undefined) return;
      const answer = await handlers
        .input(sessionId, input.body)
        .catch((error: unknown): ForwardedAnswer => ({
          error: { name: 'Error', kind: 'unavailable', message: (error as Error).message },
        }));
      await this.answer(sessionId, Number(input.input_id), answer);
    }
  }

  /**
   * Answers the inputs a stopped owner had claimed but not answered: whether they took
   * effect is unknown, so they are not run twice; the sender is told to look first.
   */
  private async answerOrphans(sessionId: string): Promise<void> {
    const orphans = await this.db.query<{ input_id: number }>(
      `session ${sessionId}: cannot read the inputs of its stopped owner`,
      `SELECT input_id FROM agent_inputs
       WHERE session_id = $1 AND claimed_by IS NOT NULL AND claimed_by <> $2
         AND answered_at IS NULL`,
      [sessionId, this.host.id],
    );
    for (const orphan of orphans) {
      await this.answer(sessionId, Number(orphan.input_id), {
        error: {
          name: 'JournalError',
          kind: 'unavailable',
          message:
            `session ${sessionId}: the host that owned it stopped while it handled this input, ` +
            'so it may or may not have taken effect: look at the session before sending it again',
        },
      });
    }
  }

  private async answer(sessionId: string, id: number, answer: ForwardedAnswer): Promise<void> {
    await this.db.query(
      `session ${sessionId}: cannot store the answer to a forwarded input`,
      `WITH a AS (
         UPDATE agent_inputs SET answer = $2, answered_at = now() WHERE input_id = $1
         RETURNING input_id
       )
       SELECT pg_notify($3, input_id::text) FROM a`,
      [id, JSON.stringify(answer), this.channels.answers],
    );
  }

  /** Renews this host's leases, takes expired and unattended ones, and runs waiting inputs. */
  private async tick(): Promise<void> {
    if (this.closed) return;
    try {
      await this.renew();
      await this.sweep();
      await this.running.read();
      for (const id of this.owned) void this.drain(id);
      if (++this.ticks % 40 === 0) await this.forgetAnswered();
    } catch {
      // The database is down: the next tick tries again; the listener logs the outage.
    }
  }

  private async renew(): Promise<void> {
    const rows = await this.db.query<{ session_id: string }>(
      'cannot renew the session leases',
      `UPDATE session_leases SET expires_at = now() + make_interval(secs => $2)
       WHERE host_id = $1 RETURNING session_id`,
      [this.host.id, this.leaseMs / 1000],
    );
    const kept = new Set(rows.map((r) => r.session_id));
    for (const id of [...this.owned]) {
      if (kept.has(id)) continue;
      this.owned.delete(id);
      this.handlers?.lost(id);
    }
  }

  /** Takes the leases that expired (their host stopped) and sessions with input but no lease. */
  private async sweep(): Promise<void> {
    const taken = await this.db.query<{ session_id: string }>(
      'cannot take the expired session leases',
      `WITH expired AS (
         UPDATE session_leases SET host_id = $1, host_name = $2, taken_at = now(),
           expires_at = now() + make_interval(secs => $3), running = false
         WHERE expires_at < now() RETURNING session_id
       ), unattended AS (
         INSERT INTO session_leases (session_id, host_id, host_name, expires_at)
         SELECT DISTINCT i.session_id, $1, $2, now() + make_interval(secs => $3)
         FROM agent_inputs i
         WHERE i.answered_at IS NULL
           AND NOT EXISTS (SELECT 1 FROM session_leases l WHERE l.session_id = i.session_id)
         ON CONFLICT (session_id) DO NOTHING
         RETURNING session_id
       )
       SELECT session_id FROM expired UNION SELECT session_id FROM unattended`,
      [this.host.id, this.host.name, this.leaseMs / 1000],
    );
    for (const row of taken) this.adopt(row.session_id);
  }

  private async forgetAnswered(): Promise<void> {
    await this.db.query(
      'cannot delete old answered inputs',
      `DELETE FROM agent_inputs WHERE answered_at < now() - make_interval(secs => $1)`,
      [answeredKeptMs / 1000],
    );
  }
}
