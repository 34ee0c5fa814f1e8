import { connect as connectH2, type ClientHttp2Session } from 'node:http2';
import { connect as connectTcp, type Socket } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { userMessage } from '@dsh/fixtures';
import { create, toBinary } from '@bufbuild/protobuf';
import { FollowRequestSchema, type FollowResponse } from '@dsh/gen/service';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Journal } from '@dsh/journal';
import type { ServerOptions } from '../src/index.js';
import { envelope } from './raw-rpc.js';
import { iterate, startTestHost, take, type TestHost } from './test-host.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

/** Heap in use after a full collection, in MiB. */
function heapMiB(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
}

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const big = 'x'.repeat(32 * 1024);

async function setup(
  bigEvents: number,
  options: Partial<Omit<ServerOptions, 'store'>> = {},
): Promise<{ host: TestHost; journal: Journal }> {
  host = await startTestHost({ follow: { heartbeatMs: 60_000 }, ...options });
  const journal = await host.store.create({ cwd: host.dir });
  for (let i = 0; i < bigEvents; i += 100) {
    const n = Math.min(100, bigEvents - i);
    await journal.append(Array.from({ length: n }, (_, j) => userMessage(`${i + j} ${big}`)));
  }
  return { host, journal };
}

/** A Follow over raw HTTP/1.1 whose client never reads: the server's writes block. */
/** Connect JSON goes through Connect's pipeline, binary through the direct stream. */
type Format = 'json' | 'proto';

/** The enveloped FollowRequest of `sessionId` in `format`. */
function followBody(sessionId: string, format: Format): Uint8Array {
  return envelope(
    format === 'json'
      ? new TextEncoder().encode(JSON.stringify({ sessionId }))
      : toBinary(FollowRequestSchema, create(FollowRequestSchema, { sessionId })),
  );
}

function stalledH1Follow(port: number, sessionId: string, format: Format = 'json'): Socket {
  const body = followBody(sessionId, format);
  const socket = connectTcp(port, '127.0.0.1');
  socket.on('error', () => {});
  socket.write(
    'POST /dsh.session.v1.SessionService/Follow HTTP/1.1\r\nHost: 127.0.0.1\r\n' +
      `Content-Type: application/connect+${format}\r\nConnect-Protocol-Version: 1\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`,
  );
  socket.write(body);
  socket.pause();
  return socket;
}

/** A Follow over raw h2c whose client never reads (its flow-control window fills). */
function stalledH2Follow(
  url: string,
  sessionId: string,
  format: Format = 'json',
): ClientHttp2Session {
  const session = connectH2(url);
  session.on('error', () => {});
  const stream = session.request({
    ':method': 'POST',
    ':path': '/dsh.session.v1.SessionService/Follow',
    'content-type': `application/connect+${format}`,
    'connect-protocol-version': '1',
  });
  stream.on('error', () => {});
  stream.end(followBody(sessionId, format));
  stream.pause();
  return session;
}

function seqOf(frame: FollowResponse): number | undefined {
  return frame.frame.case === 'event' ? frame.frame.value.event!.seq : undefined;
}

describe('Follow leaks (real HTTP server)', () => {
  it('releases everything when 100 stalled followers are destroyed mid-write', async () => {
    const { host, journal } = await setup(400, { limits: { stallTimeoutMs: 600_000 } });
    const sessionId = journal.header.sessionId;
    const before = heapMiB();
    const format = (i: number): Format => (i % 2 === 0 ? 'json' : 'proto');
    const h1 = Array.from({ length: 50 }, (_, i) =>
      stalledH1Follow(host.server.port, sessionId, format(i)),
    );
    const h2 = Array.from({ length: 50 }, (_, i) =>
      stalledH2Follow(host.server.url, sessionId, format(i)),
    );
    await vi.waitFor(() => expect(host.server.stats().streams.follow).toBe(100), {
      timeout: 20_000,
    });
    // Let every stream run into its blocked write.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const stalled = heapMiB();
    expect(journal.tailCount).toBe(100);
    for (const socket of h1) socket.destroy();
    for (const session of h2) session.destroy();
    await vi.waitFor(
      () => {
        expect(journal.tailCount).toBe(0);
        expect(host.server.stats()).toMatchObject({ requests: 0, streams: { follow: 0 } });
      },
      { timeout: 10_000 },
    );
    const after = heapMiB();
    console.log(
      `100 stalled followers of a 12.5 MiB session: heap ${before.toFixed(1)} -> ` +
        `${stalled.toFixed(1)} MiB while stalled -> ${after.toFixed(1)} MiB after destroy`,
    );
    // One bounded catch-up chunk per stream, not the session: 100 x 12.5 MiB would be 1.2 GiB.
    expect(stalled - before).toBeLessThan(150);
    expect(after - before).toBeLessThan(20);
    expect(host.logs).toEqual([]);
  }, 60_000);

  it('leaves nothing behind after 3,000 random follow/abort cycles', async () => {
    const { host, journal } = await setup(0);
    await journal.append(Array.from({ length: 300 }, (_, i) => userMessage(`e${i}`)));
    const sessionId = journal.header.sessionId;
    const clients = [
      host.client,
      host.clientFor('connect-h2'),
      host.clientFor('grpc'),
      host.clientFor('connect-binary'),
    ];
    let appending = true;
    const appender = (async () => {
      for (let i = 0; appending; i += 1) {
        await journal.append([userMessage(`live ${i}`)]);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const cycle = async (i: number): Promise<void> => {
      const ac = new AbortController();
      const client = clients[i % clients.length]!;
      const afterSeq = i % 3 === 0 ? undefined : (i * 7919) % 250;
      const it = iterate(client.follow({ sessionId, afterSeq }, { signal: ac.signal }));
      const frames = 1 + ((i * 31) % 4); // abort before the opening frame, in catch-up, or live
      const delay = (i * 17) % 7;
      setTimeout(() => ac.abort(), delay);
      await take(it, frames).catch(() => []);
      ac.abort();
    };
    let rssBefore = 0;
    let heapBefore = 0;
    const cycles = 3_000;
    for (let i = 0; i < cycles; i += 25) {
      if (i === 500) {
        heapBefore = heapMiB();
        rssBefore = process.memoryUsage().rss / 2 ** 20;
      }
      await Promise.all(Array.from({ length: 25 }, (_, j) => cycle(i + j)));
    }
    appending = false;
    await appender;
    await vi.waitFor(
      () => {
        expect(journal.tailCount).toBe(0);
        expect(host.server.stats()).toMatchObject({ requests: 0, streams: { follow: 0 } });
      },
      { timeout: 10_000 },
    );
    const heapAfter = heapMiB();
    const rssAfter = process.memoryUsage().rss / 2 ** 20;
    console.log(
      `${cycles} follow/abort cycles: listeners 0, heap ${heapBefore.toFixed(1)} -> ` +
        `${heapAfter.toFixed(1)} MiB, RSS ${rssBefore.toFixed(0)} -> ${rssAfter.toFixed(0)} MiB`,
    );
    expect(heapAfter - heapBefore).toBeLessThan(25);
    expect([...new Set(host.logs)].slice(0, 5)).toEqual([]);
  }, 180_000);

  it('loses and repeats nothing across 300 random reconnects while events are appended', async () => {
    const { host, journal } = await setup(0);
    const sessionId = journal.header.sessionId;
    const total = 3_000;
    const appender = (async () => {
      for (let i = 0; i < total; i += 10) {
        await journal.append(Array.from({ length: 10 }, (_, j) => userMessage(`m${i + j}`)));
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();
    const clients = [
      host.client,
      host.clientFor('connect-h2'),
      host.clientFor('grpc'),
      host.clientFor('connect-binary'),
    ];
    const seen: number[] = [];
    let reconnects = 0;
    while (seen.length < total) {
      const ac = new AbortController();
      const last = seen.at(-1);
      const it = iterate(
        clients[reconnects % clients.length]!.follow(
          { sessionId, afterSeq: last },
          { signal: ac.signal },
        ),
      );
      const budget = 1 + ((reconnects * 37) % 23);
      try {
        for (let n = 0; n < budget;) {
          const next = await it.next();
          if (next.done === true) break;
          const seq = seqOf(next.value);
          if (seq === undefined) continue;
          seen.push(seq);
          n += 1;
          if (seen.length >= total) break;
        }
      } catch (error) {
        expect(String(error)).toMatch(/canceled|aborted/i);
      }
      ac.abort();
      reconnects += 1;
    }
    await appender;
    expect(reconnects).toBeGreaterThan(200);
    expect(seen).toEqual(Array.from({ length: total }, (_, i) => i));
    await vi.waitFor(() => expect(journal.tailCount).toBe(0));
  }, 120_000);
});

/** The event seqs in a Connect JSON stream body (envelopes of FollowResponse JSON). */
function seqsIn(body: Buffer): number[] {
  const seqs: number[] = [];
  for (let at = 0; at + 5 <= body.length;) {
    const length = body.readUInt32BE(at + 1);
    if (at + 5 + length > body.length) break;
    if (body[at] === 0) {
      const frame = JSON.parse(body.subarray(at + 5, at + 5 + length).toString('utf8')) as {
        event?: { event?: { seq?: number | string } };
      };
      if (frame.event !== undefined) seqs.push(Number(frame.event.event?.seq ?? 0));
    }
    at += 5 + length;
  }
  return seqs;
}

describe('stalled streams', () => {
  it.each<Format>(['json', 'proto'])(
    'closes an HTTP/1.1 follower (Connect %s) that stopped reading after the stall timeout',
    async (format) => {
      const { host, journal } = await setup(400, { limits: { stallTimeoutMs: 500 } });
      const socket = stalledH1Follow(host.server.port, journal.header.sessionId, format);
      await vi.waitFor(() => expect(journal.tailCount).toBe(1));
      const t0 = Date.now();
      await vi.waitFor(
        () => {
          expect(journal.tailCount).toBe(0);
          expect(host.server.stats()).toMatchObject({ connections: 0, requests: 0 });
        },
        { timeout: 10_000 },
      );
      console.log(`a stalled HTTP/1.1 follower was closed ${Date.now() - t0} ms after it stalled`);
      // The client sees its connection end once it reads again.
      const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
      socket.resume();
      await closed;
      expect(host.logs).toEqual([
        'dsh: SessionService/Follow: closed a stream whose client stopped reading',
      ]);
    },
    30_000,
  );

  it('resets an h2 follower that stopped reading (ENHANCE_YOUR_CALM = resource_exhausted); it resumes gap-free', async () => {
    const { host, journal } = await setup(400, { limits: { stallTimeoutMs: 500 } });
    const sessionId = journal.header.sessionId;
    const session = connectH2(host.server.url);
    const stream = session.request({
      ':method': 'POST',
      ':path': '/dsh.session.v1.SessionService/Follow',
      'content-type': 'application/connect+json',
      'connect-protocol-version': '1',
    });
    stream.on('error', () => {});
    const closed = new Promise<number>((resolve) =>
      stream.once('close', () => resolve(stream.rstCode ?? -1)),
    );
    stream.end(envelope(new TextEncoder().encode(JSON.stringify({ sessionId }))));
    stream.pause(); // this client stops reading: its flow-control window fills
    await vi.waitFor(() => expect(journal.tailCount).toBe(1));
    await vi.waitFor(() => expect(journal.tailCount).toBe(0), { timeout: 10_000 });
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.resume();
    expect(await closed).toBe(11); // NGHTTP2_ENHANCE_YOUR_CALM
    session.close();
    const seen = seqsIn(Buffer.concat(chunks));
    expect(seen.length).toBeLessThan(400);
    const ac = new AbortController();
    const again = iterate(
      host
        .clientFor('connect-h2')
        .follow({ sessionId, afterSeq: seen.at(-1) }, { signal: ac.signal }),
    );
    while (seen.at(-1) !== 399) {
      const next = await again.next();
      const seq = next.done === true ? undefined : seqOf(next.value);
      if (seq !== undefined) seen.push(seq);
    }
    ac.abort();
    expect(seen).toEqual(Array.from({ length: 400 }, (_, i) => i));
  }, 30_000);
});

describe('WatchSessions leaks', () => {
  it('releases its observers after 500 watch/abort cycles', async () => {
    const { host } = await setup(0);
    const clients = [host.client, host.clientFor('connect-h2'), host.clientFor('grpc')];
    for (let i = 0; i < 500; i += 20) {
      await Promise.all(
        Array.from({ length: 20 }, async (_, j) => {
          const ac = new AbortController();
          const it = iterate(clients[(i + j) % 3]!.watchSessions({}, { signal: ac.signal }));
          setTimeout(() => ac.abort(), (i + j) % 4);
          await take(it, 1).catch(() => []);
          ac.abort();
        }),
      );
      await host.store.create({ cwd: host.dir });
    }
    await vi.waitFor(() =>
      expect(host.server.stats()).toMatchObject({ requests: 0, streams: { watch: 0 } }),
    );
    expect([...new Set(host.logs)].slice(0, 5)).toEqual([]);
  }, 60_000);
});
