import type { Socket } from 'node:net';

/** Caps on what one host and one client address may hold open. */
export interface ConnectionCaps {
  /** Open TCP connections in all. */
  readonly maxConnections: number;
  /** Open TCP connections from one client address. */
  readonly maxConnectionsPerClient: number;
  /** Requests in flight (HTTP/1.1 requests and HTTP/2 streams) from one client address. */
  readonly maxStreamsPerClient: number;
}

/** What the guard holds, for tests and soak runs. */
export interface ConnectionStats {
  readonly connections: number;
  /** Connections that have not yet sent an authorized request. */
  readonly pending: number;
  readonly streams: number;
}

/**
 * Admits TCP connections under the caps without letting a flood lock anyone out: a
 * connection is *pending* until it sends a request that passes the access check, and
 * when a cap is reached the oldest pending connection (of that client, else of all) is
 * closed to make room. Only when every connection at the cap is trusted is the new one
 * refused. Half-open sockets therefore cost a bounded number of descriptors, and a
 * well-formed client always gets in.
 */
export interface ConnectionGuard {
  /** Registers a new connection; false (and the socket destroyed) when refused. */
  admit(socket: Socket): boolean;
  /** Marks the connection `key` (see `connectionKey`) as having sent an authorized request. */
  trust(key: string): void;
  /** Counts a request of `address`; false when that client is at its stream cap. */
  beginStream(address: string): boolean;
  endStream(address: string): void;
  stats(): ConnectionStats;
}

/** The key of a connection: its client address and port, the same through HTTP/2's socket proxy. */
export function connectionKey(socket: {
  readonly remoteAddress?: string | undefined;
  readonly remotePort?: number | undefined;
}): string {
  return `${socket.remoteAddress ?? '?'}|${socket.remotePort ?? 0}`;
}

interface Entry {
  readonly socket: Socket;
  readonly client: Client;
  trusted: boolean;
  gone: boolean;
}

interface Client {
  connections: number;
  streams: number;
  /** Pending connections, oldest first. */
  readonly pending: Set<Entry>;
}

/** Creates a guard with the given caps. */
export function createConnectionGuard(caps: ConnectionCaps): ConnectionGuard {
  const entries = new Map<string, Entry>();
  const pending = new Set<Entry>();
  const clients = new Map<string, Client>();
  let streams = 0;
  const clientOf = (address: string): Client => {
    let client = clients.get(address);
    if (client === undefined) {
      client = { connections: 0, streams: 0, pending: new Set() };
      clients.set(address, client);
    }
    return client;
  };
  const forget = (key: string, entry: Entry): void => {
    if (entry.gone) return;
    entry.gone = true;
    if (entries.get(key) === entry) entries.delete(key);
    pending.delete(entry);
    entry.client.pending.delete(entry);
    entry.client.connections -= 1;
    dropIfIdle(clients, entry.socket.remoteAddress ?? '?', entry.client);
  };
  const evictOldest = (from: Set<Entry>): boolean => {
    const victim = first(from);
    if (victim === undefined) return false;
    forget(connectionKey(victim.socket), victim);
    victim.socket.destroy();
    return true;
  };
  return {
    admit(socket) {
      const address = socket.remoteAddress ?? '?';
      const client = clientOf(address);
      const roomForClient =
        client.connections < caps.maxConnectionsPerClient || evictOldest(client.pending);
      const room = roomForClient && (entries.size < caps.maxConnections || evictOldest(pending));
      if (!room) {
        dropIfIdle(clients, address, client);
        socket.destroy();
        return false;
      }
      const key = connectionKey(socket);
      const entry: Entry = { socket, client, trusted: false, gone: false };
      entries.set(key, entry);
      pending.add(entry);
      client.pending.add(entry);
      client.connections += 1;
      socket.once('close', () => forget(key, entry));
      return true;
    },
    trust(key) {
      const entry = entries.get(key);
      if (entry === undefined || entry.trusted) return;
      entry.trusted = true;
      pending.delete(entry);
      entry.client.pending.delete(entry);
    },
    beginStream(address) {
      const client = clientOf(address);
      if (client.streams >= caps.maxStreamsPerClient) {
        dropIfIdle(clients, address, client);
        return false;
      }
      client.streams += 1;
      streams += 1;
      return true;
    },
    endStream(address) {
      const client = clients.get(address);
      if (client === undefined) return;
      client.streams -= 1;
      streams -= 1;
      dropIfIdle(clients, address, client);
    },
    stats: () => ({ connections: entries.size, pending: pending.size, streams }),
  };
}

function dropIfIdle(clients: Map<string, Client>, address: string, client: Client): void {
  if (client.connections === 0 && client.streams === 0) clients.delete(address);
}

function first<T>(set: Set<T>): T | undefined {
  for (const value of set) return value;
  return undefined;
}
