/**
 * The limits that keep a long-running host serving under floods, half-open sockets
 * and clients that stop reading. Every one is configurable (`dsh serve --help`); the
 * defaults suit a workstation or a small team server.
 */
export interface ServerLimits {
  /**
   * A new connection must show its protocol and send complete request headers
   * (HTTP/1.1), or open its first stream (h2c), within this. Default 10 s.
   */
  readonly headersTimeoutMs: number;
  /** A request's headers and body must arrive completely within this. Default 30 s. */
  readonly requestTimeoutMs: number;
  /** A keep-alive connection or h2c session with nothing in flight closes after this. Default 30 s. */
  readonly idleTimeoutMs: number;
  /** A response whose client read nothing for this long is closed. Default 30 s. */
  readonly stallTimeoutMs: number;
  /** Open connections in all. Default 1,024. */
  readonly maxConnections: number;
  /** Open connections from one client address. Default 256. */
  readonly maxConnectionsPerClient: number;
  /** Requests and streams in flight from one client address. Default 128. */
  readonly maxStreamsPerClient: number;
}

/** The defaults of `ServerLimits`. */
export const defaultServerLimits: ServerLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  idleTimeoutMs: 30_000,
  stallTimeoutMs: 30_000,
  maxConnections: 1_024,
  maxConnectionsPerClient: 256,
  maxStreamsPerClient: 128,
};
