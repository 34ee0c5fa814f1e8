import { timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { PassThrough, Writable } from 'node:stream';
import ssh2 from 'ssh2';
import type { AuthContext, Connection, ParsedKey, PseudoTtyInfo, ServerChannel } from 'ssh2';
import type { ClientIsolation, FailClient } from './client-isolation.js';

const { Server } = ssh2;

/** The terminal of one SSH channel, shaped like a TTY for the client's screen. */
export interface ChannelTerminal {
  readonly input: PassThrough & { isTTY: true; setRawMode: (mode: boolean) => void };
  readonly output: Writable & { isTTY: true; columns: number; rows: number };
  /** The terminal type the SSH client asked for (`TERM` on its side). */
  readonly term: string;
}

/** A client started on a channel: it ends the channel when `done` resolves. */
export interface ChannelClient {
  readonly done: Promise<void>;
  close(): void;
}

/**
 * Who may connect: anyone (loopback without listed keys), or the holders of the listed
 * public keys (read on every attempt, so a key added to the file works at once) and,
 * with `token`, whoever gives it as the password.
 */
export type SshAccess =
  | { readonly kind: 'anyone' }
  | {
      readonly kind: 'checked';
      readonly keys: () => readonly ParsedKey[];
      readonly token?: string;
    };

/** Options of `startSshServer`. */
export interface SshServerOptions {
  /** The host key (OpenSSH or PEM private key). */
  readonly hostKey: Buffer;
  /** Who may connect, asked on every authentication attempt. */
  readonly access: () => SshAccess;
  /** Address to bind; the caller decides whether an address may go without keys. */
  readonly host: string;
  /** 0 picks a free port. */
  readonly port: number;
  /** Starts one terminal client on a channel's terminal. */
  readonly startClient: (terminal: ChannelTerminal) => ChannelClient;
  readonly log?: (line: string) => void;
  /** Output a slow SSH client may leave unread before its connection is closed (bytes). */
  readonly maxUnsentBytes?: number;
  /**
   * Keeps each client's failures to its own channel (`isolateClients`); without it an
   * exception in one client is the process's.
   */
  readonly isolation?: ClientIsolation;
}

/** A listening server. */
export interface SshServer {
  readonly port: number;
  /** Open channels running a client. */
  readonly clients: number;
  /** Stops listening, ends every client and closes every connection. */
  close(): Promise<void>;
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Authentication against `access`: a public key must be listed, and its signature, when
 * the client sends one, must verify (a client first asks whether a key would do); a
 * password must equal the token. Anything else is told which methods remain.
 */
function authenticate(context: AuthContext, access: SshAccess): void {
  if (access.kind === 'anyone') {
    context.accept();
    return;
  }
  const methods: Array<'publickey' | 'password'> = ['publickey'];
  if (access.token !== undefined) methods.push('password');
  if (context.method === 'password' && access.token !== undefined) {
    if (sameBytes(Buffer.from(context.password), Buffer.from(access.token))) context.accept();
    else context.reject(methods);
    return;
  }
  if (context.method !== 'publickey') {
    context.reject(methods);
    return;
  }
  const offered = context.key;
  const match = access
    .keys()
    .find((key) => key.type === offered.algo && sameBytes(key.getPublicSSH(), offered.data));
  if (match === undefined) {
    context.reject(methods);
    return;
  }
  if (context.signature === undefined || context.blob === undefined) {
    context.accept();
    return;
  }
  if (match.verify(context.blob, context.signature, context.hashAlgo) === true) context.accept();
  else context.reject(methods);
}

/** Runs a client's callback; `guard` keeps what it throws to that client. */
type Guard = (fn: () => void) => void;

/**
 * Wraps a channel as a TTY of `size`; `resize` changes its size and tells the screen. Keys
 * and resizes reach the client through `guard`.
 */
function channelTerminal(
  channel: ServerChannel,
  info: PseudoTtyInfo,
  maxUnsent: number,
  guard: Guard,
) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true as const,
    setRawMode: () => {},
  });
  channel.on('data', (data: Buffer) => guard(() => input.write(data)));
  channel.on('end', () => input.end());
  const output = Object.assign(
    new Writable({
      write(chunk: Buffer, _encoding, callback) {
        if (channel.writableLength > maxUnsent) {
          // The client reads slower than the screen changes: end it rather than buffer forever.
          channel.stderr.write('\r\ndsh ssh: this connection fell too far behind; reconnect\r\n');
          channel.close();
          callback();
          return;
        }
        if (!channel.destroyed) channel.write(chunk);
        callback();
      },
    }),
    {
      isTTY: true as const,
      columns: Math.max(1, info.cols || 80),
      rows: Math.max(1, info.rows || 24),
    },
  );
  const terminal: ChannelTerminal = { input, output, term: info.term || 'xterm' };
  return {
    terminal,
    resize(cols: number, rows: number) {
      output.columns = Math.max(1, cols);
      output.rows = Math.max(1, rows);
      guard(() => output.emit('resize'));
    },
  };
}

/**
 * Serves terminal clients over SSH (ssh2): each session channel that asks for a pty and a
 * shell gets its own client with its own terminal size, kept current by window-change
 * requests. A channel without a pty, and `exec` requests, are told to use `ssh -t`. A
 * client ends its channel when it quits; a closed channel or connection ends its client.
 */
export async function startSshServer(options: SshServerOptions): Promise<SshServer> {
  const log = options.log ?? (() => {});
  const maxUnsent = options.maxUnsentBytes ?? 16 * 1024 * 1024;
  const clients = new Set<ChannelClient>();
  const connections = new Set<Connection>();

  const refuse = (channel: ServerChannel, message: string) => {
    channel.stderr.write(`dsh ssh: ${message}\r\n`);
    channel.exit(2);
    channel.end();
  };

  const server = new Server({ hostKeys: [options.hostKey] }, (connection, info) => {
    connections.add(connection);
    const peer = `${info.ip}:${info.port}`;
    let user = '';
    connection.on('authentication', (context) => {
      user = context.username;
      authenticate(context, options.access());
    });
    connection.on('error', (error) => log(`dsh ssh: connection error: ${error.message}`));
    connection.on('close', () => connections.delete(connection));
    connection.on('ready', () => {
      connection.on('session', (acceptSession) => {
        const session = acceptSession();
        let pty: PseudoTtyInfo | undefined;
        let resize: ((cols: number, rows: number) => void) | undefined;
        session.on('pty', (accept, _reject, info) => {
          pty = info;
          accept?.();
        });
        session.on('window-change', (accept, _reject, info) => {
          if (pty !== undefined) pty = { ...pty, cols: info.cols, rows: info.rows };
          resize?.(info.cols, info.rows);
          accept?.();
        });
        session.on('exec', (accept) => {
          refuse(
            accept(),
            'runs no commands; connect without one (ssh -t HOST) for the terminal client',
          );
        });
        session.on('shell', (accept) => {
          const channel = accept();
          if (pty === undefined) {
            refuse(channel, 'needs a terminal: connect with ssh -t');
            return;
          }
          let client: ChannelClient | undefined;
          let ended = false;
          const end = () => {
            if (ended || client === undefined) return;
            ended = true;
            clients.delete(client);
            try {
              client.close();
            } catch (error) {
              log(`dsh ssh: ${user}@${peer}'s client failed to close: ${String(error)}`);
            }
            log(`dsh ssh: ${user}@${peer} closed its client (${clients.size} open)`);
          };
          // This client failed: it alone ends, with the reason on its terminal and in the log.
          const fail: FailClient = (error) => {
            if (ended) return;
            const reason = error instanceof Error ? (error.stack ?? error.message) : String(error);
            log(`dsh ssh: ${user}@${peer}'s client failed: ${reason}`);
            end();
            if (channel.destroyed) return;
            const message = error instanceof Error ? error.message : String(error);
            try {
              channel.stderr.write(
                `\r\ndsh ssh: the terminal client failed (${message}); reconnect to start a new one\r\n`,
              );
              channel.exit(1);
              channel.end();
            } catch {
              channel.destroy();
            }
          };
          const isolation = options.isolation;
          const guard: Guard = (fn) => (isolation ? isolation.guard(fail, fn) : fn());
          // A channel's own error (a peer that vanished mid-write) is this client's too.
          channel.on('error', (error: Error) => fail(error));
          const wrapped = channelTerminal(channel, pty, maxUnsent, guard);
          resize = wrapped.resize;
          try {
            const start = () => options.startClient(wrapped.terminal);
            client = isolation ? isolation.run(fail, start) : start();
          } catch (error) {
            refuse(channel, `the terminal client failed to start: ${(error as Error).message}`);
            return;
          }
          const started = client;
          clients.add(started);
          log(
            `dsh ssh: ${user}@${peer} opened a client ${wrapped.terminal.output.columns}x${wrapped.terminal.output.rows} ${wrapped.terminal.term} (${clients.size} open)`,
          );
          channel.on('close', end);
          void started.done.then(() => {
            end();
            if (!channel.destroyed) {
              channel.exit(0);
              channel.end();
            }
          });
        });
      });
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error: Error) => log(`dsh ssh: ${error.message}`));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    get clients() {
      return clients.size;
    },
    async close() {
      for (const client of [...clients]) client.close();
      clients.clear();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const connection of connections) connection.end();
      await closed;
    },
  };
}
