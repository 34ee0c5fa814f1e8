import pg from 'pg';

/** Options of `PgListener`. */
export interface PgListenerOptions {
  /** Connection settings of the listening connection (the pool's, one more connection). */
  readonly client: pg.ClientConfig;
  /** The channels to LISTEN on. */
  readonly channels: readonly string[];
  /** A notification arrived on one of the channels. */
  readonly onNotify: (channel: string, payload: string) => void;
  /**
   * The listener is live again after its connection was lost (notifications in between
   * were missed): wakes every reader, who reads by seq from the tables.
   */
  readonly onReconnect: (lostAt: Date) => void;
  /** A connection attempt failed (logged once per outage). */
  readonly onError?: (error: unknown) => void;
}

/** Delays between reconnect attempts: 50 ms doubling up to 2 s. */
const firstDelayMs = 50;
const maxDelayMs = 2000;

/**
 * One dedicated connection that LISTENs for the backend's notifications, reconnecting
 * with backoff whenever the connection drops (a database restart) until it is closed.
 * Notifications only wake readers: every event is read by seq from the tables.
 */
export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private lostAt: Date | undefined;
  private retry: NodeJS.Timeout | undefined;
  private delayMs = firstDelayMs;

  constructor(private readonly options: PgListenerOptions) {}

  /** Connects and LISTENs; rejects when the first connection fails. */
  async start(): Promise<void> {
    this.client = await this.connect();
  }

  /** True while the listening connection is up. */
  get live(): boolean {
    return this.client !== undefined && this.lostAt === undefined;
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => undefined);
  }

  private async connect(): Promise<pg.Client> {
    const client = new pg.Client(this.options.client);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    client.on('notification', (message) => {
      this.options.onNotify(message.channel, message.payload ?? '');
    });
    try {
      await client.connect();
      for (const channel of this.options.channels) {
        await client.query(`LISTEN ${quoteChannel(channel)}`);
      }
    } catch (error) {
      client.removeAllListeners('end');
      await client.end().catch(() => undefined);
      throw error;
    }
    return client;
  }

  private lost(client: pg.Client): void {
    if (this.closed || this.client !== client) return;
    this.client = undefined;
    this.lostAt ??= new Date();
    client.end().catch(() => undefined);
    this.schedule();
  }

  private schedule(): void {
    if (this.closed) return;
    this.retry = setTimeout(() => void this.reconnect(), this.delayMs);
    this.delayMs = Math.min(maxDelayMs, this.delayMs * 2);
  }

  private async reconnect(): Promise<void> {
    let client: pg.Client;
    try {
      client = await this.connect();
    } catch (error) {
      if (this.delayMs === firstDelayMs * 2) this.options.onError?.(error);
      this.schedule();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.delayMs = firstDelayMs;
    const lostAt = this.lostAt ?? new Date();
    this.lostAt = undefined;
    this.options.onReconnect(lostAt);
  }
}

/** A channel name as a quoted SQL identifier. */
export function quoteChannel(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
