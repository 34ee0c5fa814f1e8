import { connect as connectH2 } from 'node:http2';
import { connect as connectTcp, type Socket } from 'node:net';
import { Code, type Interceptor } from '@connectrpc/connect';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ServerLimits } from '../src/index.js';
import {
  conversation,
  iterate,
  rpcError,
  startTestHost,
  take,
  type TestHost,
} from './test-host.js';

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const token = 'flood-test-token';
const bearer: Interceptor = (next) => (req) => {
  req.header.set('authorization', `Bearer ${token}`);
  return next(req);
};

/** The ways a client can open a connection and then go quiet. */
const halfOpen: Record<string, string> = {
  silent: '',
  'partial HTTP/1.1 headers': 'POST /dsh.session.v1.SessionService/Page HTTP/1.1\r\nHost: 127',
  'a trickled body':
    'POST /dsh.session.v1.SessionService/Page HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
    'Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"sess',
  'a partial h2 preface': 'PRI * HTTP/2.0\r\n',
  'an h2 preface and nothing after it': 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
};

/**
 * Opens a connection that goes quiet after `bytes`, from 127.0.0.2: the flood is another
 * client than the authenticated one on 127.0.0.1, as it would be, so the per-client caps
 * that protect that client are what is tested, not the flood's share of its budget.
 */
function openHalf(port: number, bytes: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connectTcp({ port, host: '127.0.0.1', localAddress: '127.0.0.2' }, () => {
      if (bytes !== '') socket.write(bytes);
      resolve(socket);
    });
    socket.on('error', () => {});
    socket.resume(); // read, so the client notices when the host closes the socket
  });
}

async function start(limits: Partial<ServerLimits>, withToken = true): Promise<TestHost> {
  host = await startTestHost({
    ...(withToken && { token }),
    follow: { heartbeatMs: 200 },
    limits,
  });
  return host;
}

describe('connection limits under a flood of half-open sockets', () => {
  it('2,000 half-open sockets: an authenticated Page answers promptly; all are closed in time', async () => {
    const host = await start({
      headersTimeoutMs: 1_000,
      requestTimeoutMs: 2_000,
      idleTimeoutMs: 1_000,
      maxConnections: 500,
      maxConnectionsPerClient: 400,
    });
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append(conversation(3));
    const kinds = Object.values(halfOpen);
    const sockets: Socket[] = [];
    for (let i = 0; i < 2_000; i += 100) {
      sockets.push(
        ...(await Promise.all(
          Array.from({ length: 100 }, (_, j) => openHalf(host.server.port, kinds[(i + j) % 5]!)),
        )),
      );
    }
    const closedAt = new Map<Socket, number>();
    const t0 = Date.now();
    for (const socket of sockets) {
      if (socket.destroyed) closedAt.set(socket, 0);
      else socket.once('close', () => closedAt.set(socket, Date.now() - t0));
    }
    const timings: Record<string, number> = {};
    for (const kind of ['connect-h1', 'connect-h2', 'grpc'] as const) {
      const client = host.clientFor(kind, [bearer]);
      const started = performance.now();
      const page = await client.page({ sessionId: journal.header.sessionId });
      timings[kind] = Math.round(performance.now() - started);
      expect(page.events).toHaveLength(21);
    }
    console.log(`Page during a 2,000 half-open socket flood: ${JSON.stringify(timings)} ms`);
    for (const ms of Object.values(timings)) expect(ms).toBeLessThan(5_000);
    expect(host.server.stats().connections).toBeLessThanOrEqual(500);
    await vi.waitFor(() => expect(closedAt.size).toBe(2_000), { timeout: 15_000 });
    const last = Math.max(...closedAt.values());
    console.log(`all 2,000 half-open sockets closed within ${last} ms`);
    expect(last).toBeLessThan(8_000);
    // Only the three authenticated clients' connections (if still idle-open) remain.
    await vi.waitFor(() => expect(host.server.stats().pendingConnections).toBe(0));
  }, 60_000);

  it('refuses a client past its stream cap with resource_exhausted, in its own protocol', async () => {
    const host = await start({ maxStreamsPerClient: 3 });
    const journal = await host.store.create({ cwd: host.dir });
    const sessionId = journal.header.sessionId;
    const ac = new AbortController();
    const client = host.clientFor('connect-h2', [bearer]);
    const open = Array.from({ length: 3 }, () =>
      iterate(client.follow({ sessionId }, { signal: ac.signal })),
    );
    for (const it of open) await take(it, 1);
    for (const kind of ['connect-h1', 'connect-h2', 'grpc'] as const) {
      const error = await rpcError(host.clientFor(kind, [bearer]).describeHost({}));
      expect(error?.code).toBe(Code.ResourceExhausted);
      expect(error?.rawMessage).toContain('--max-streams-per-client');
    }
    ac.abort();
    await vi.waitFor(() => expect(host.server.stats().requests).toBe(0));
    expect((await host.clientFor('grpc', [bearer]).describeHost({})).capabilities).toContain(
      'page',
    );
  });
});

describe('timeouts', () => {
  it('keeps long-lived Follow streams open past every request and idle timeout', async () => {
    const host = await start(
      { headersTimeoutMs: 200, requestTimeoutMs: 300, idleTimeoutMs: 300 },
      false,
    );
    const journal = await host.store.create({ cwd: host.dir });
    const ac = new AbortController();
    const streams = (['connect-h1', 'connect-h2', 'grpc'] as const).map((kind) =>
      iterate(
        host.clientFor(kind).follow({ sessionId: journal.header.sessionId }, { signal: ac.signal }),
      ),
    );
    const started = Date.now();
    for (const it of streams) await take(it, 1);
    // Heartbeats every 200 ms for 1.5 s: five times the request and idle timeouts.
    while (Date.now() - started < 1_500) {
      for (const it of streams) {
        const [frame] = await take(it, 1);
        expect(frame?.frame.case).toBe('heartbeat');
      }
    }
    ac.abort();
  });

  it('closes an idle h2c session after the idle timeout, and one that never opens a stream', async () => {
    const host = await start({ headersTimeoutMs: 300, idleTimeoutMs: 500 }, false);
    const quiet = connectH2(host.server.url);
    const used = connectH2(host.server.url);
    const t0 = Date.now();
    const closedIn = (session: ReturnType<typeof connectH2>) =>
      new Promise<number>((resolve) => session.once('close', () => resolve(Date.now() - t0)));
    const quietClosed = closedIn(quiet);
    const usedClosed = closedIn(used);
    const req = used.request({ ':path': '/', ':method': 'GET' });
    req.resume();
    await new Promise((resolve) => req.once('end', resolve));
    expect(await quietClosed).toBeLessThan(2_000);
    const usedMs = await usedClosed;
    expect(usedMs).toBeGreaterThanOrEqual(450);
    expect(usedMs).toBeLessThan(3_000);
  });

  it('answers 408 to an HTTP/1.1 request whose body trickles past the request timeout', async () => {
    const host = await start({ headersTimeoutMs: 300, requestTimeoutMs: 600 }, false);
    const socket = await openHalf(host.server.port, halfOpen['a trickled body']!);
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
  });

  it('resets an h2c stream whose body trickles past the request timeout', async () => {
    const host = await start({ requestTimeoutMs: 500 }, false);
    const session = connectH2(host.server.url);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/dsh.session.v1.SessionService/Page',
      'content-type': 'application/json',
    });
    stream.on('error', () => {});
    stream.write('{"sess');
    const code = await new Promise<number | undefined>((resolve) =>
      stream.once('close', () => resolve(stream.rstCode)),
    );
    expect(code).toBe(8); // NGHTTP2_CANCEL
    session.close();
  });
});
