import type { IncomingMessage } from 'node:http';
import { toJson } from '@bufbuild/protobuf';
import { ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { userMessage } from '@dsh/fixtures';
import { FollowResponseSchema, SessionService } from '@dsh/gen/service';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { directStreamRequest } from '../src/direct-stream.js';
import { iterate, startTestHost, take, type TestHost } from './test-host.js';

describe('directStreamRequest', () => {
  const request = (method: string, headers: Record<string, string>) =>
    ({ method, headers }) as unknown as IncomingMessage;
  it.each<[string, string, Record<string, string>, boolean]>([
    ['binary Connect', 'POST', { 'content-type': 'application/connect+proto' }, true],
    ['upper case', 'POST', { 'content-type': 'Application/Connect+Proto' }, true],
    [
      'identity encoding',
      'POST',
      { 'content-type': 'application/connect+proto', 'connect-content-encoding': 'identity' },
      true,
    ],
    ['Connect JSON', 'POST', { 'content-type': 'application/connect+json' }, false],
    ['gRPC', 'POST', { 'content-type': 'application/grpc+proto' }, false],
    ['gRPC-Web', 'POST', { 'content-type': 'application/grpc-web+proto' }, false],
    ['a parameter', 'POST', { 'content-type': 'application/connect+proto; charset=x' }, false],
    [
      'gzip',
      'POST',
      { 'content-type': 'application/connect+proto', 'connect-content-encoding': 'gzip' },
      false,
    ],
    [
      'a timeout',
      'POST',
      { 'content-type': 'application/connect+proto', 'connect-timeout-ms': '1000' },
      false,
    ],
    ['GET', 'GET', { 'content-type': 'application/connect+proto' }, false],
  ])('%s: %s', (_name, method, headers, direct) => {
    expect(directStreamRequest(request(method, headers))).toBe(direct);
  });
});

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** The error a Follow call ends with, as code and message. */
async function followError(client: Client<typeof SessionService>, request: object) {
  const abort = new AbortController();
  try {
    await take(iterate(client.follow(request, { signal: abort.signal })), 2);
    return undefined;
  } catch (error) {
    const e = ConnectError.from(error);
    return { code: e.code, message: e.rawMessage };
  } finally {
    abort.abort();
  }
}

describe('Follow written directly', () => {
  it('fails as the Connect path does: unknown session, after_seq past the end', async () => {
    host = await startTestHost({ follow: { heartbeatMs: 60_000 } });
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append([userMessage('one'), userMessage('two')]);
    const sessionId = journal.header.sessionId;
    const binary = host.clientFor('connect-binary');
    for (const request of [{ sessionId: 'nobody' }, { sessionId, afterSeq: 7 }]) {
      const direct = await followError(binary, request);
      expect(direct).toBeDefined();
      expect(direct).toEqual(await followError(host.client, request));
    }
    // Each failure is logged alike by both paths: direct first, then Connect.
    expect(host.logs).toHaveLength(4);
    expect(host.logs[0]).toMatch(/^dsh: SessionService\/Follow NotFound: /);
    expect(host.logs[1]).toBe(host.logs[0]);
    expect(host.logs[3]).toBe(host.logs[2]);
  });

  it('serves binary Connect over h2c the frames the Connect path serves over HTTP/1.1', async () => {
    host = await startTestHost({ follow: { heartbeatMs: 60_000 } });
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append(Array.from({ length: 30 }, (_, i) => userMessage(`m${i}`)));
    const sessionId = journal.header.sessionId;
    const h2 = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.server.url, httpVersion: '2', useBinaryFormat: true }),
    );
    const frames = async (client: Client<typeof SessionService>, maxBatchEvents: number) => {
      const abort = new AbortController();
      const stream = iterate(
        client.follow({ sessionId, maxBatchEvents }, { signal: abort.signal }),
      );
      const out = await take(stream, maxBatchEvents > 1 ? 2 : 31);
      abort.abort();
      return out.map((frame) => toJson(FollowResponseSchema, frame));
    };
    for (const batch of [0, 100]) {
      expect(await frames(h2, batch)).toEqual(await frames(host.client, batch));
    }
  });

  it.each([0, 100])(
    'with max_batch_events %i, sends heartbeats while idle and live events as they come',
    async (maxBatchEvents) => {
      host = await startTestHost({ follow: { heartbeatMs: 50 } });
      const journal = await host.store.create({ cwd: host.dir });
      await journal.append([userMessage('before')]);
      const sessionId = journal.header.sessionId;
      const abort = new AbortController();
      const stream = iterate(
        host
          .clientFor('connect-binary')
          .follow({ sessionId, afterSeq: 0, maxBatchEvents }, { signal: abort.signal }),
      );
      const cases = async (n: number) => (await take(stream, n)).map((f) => f.frame.case);
      expect(await cases(3)).toEqual(['opening', 'heartbeat', 'heartbeat']);
      await journal.append([userMessage('a'), userMessage('b')]);
      await journal.append([userMessage('c')]);
      const seqs: number[] = [];
      while (seqs.length < 3) {
        const [frame] = await take(stream, 1);
        if (frame!.frame.case === 'event') seqs.push(frame!.frame.value.event!.seq);
        if (frame!.frame.case === 'events') {
          seqs.push(...frame!.frame.value.events.map((entry) => entry.event!.seq));
        }
      }
      expect(seqs).toEqual([1, 2, 3]);
      expect(await cases(1)).toEqual(['heartbeat']);
      abort.abort();
      await vi.waitFor(() => expect(host!.server.stats().streams.follow).toBe(0));
    },
  );

  it('refuses a call without the token, and serves one with it', async () => {
    host = await startTestHost({ token: 'secret-token', follow: { heartbeatMs: 60_000 } });
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append([userMessage('one')]);
    const sessionId = journal.header.sessionId;
    const refused = await followError(host.clientFor('connect-binary'), { sessionId });
    expect(refused?.code).toBe(16); // unauthenticated
    expect(refused?.message).toMatch(/missing or wrong token/);
    const withToken = host.clientFor('connect-binary', [
      (next) => (req) => {
        req.header.set('authorization', 'Bearer secret-token');
        return next(req);
      },
    ]);
    const abort = new AbortController();
    const frames = await take(
      iterate(withToken.follow({ sessionId }, { signal: abort.signal })),
      2,
    );
    abort.abort();
    expect(frames.map((f) => f.frame.case)).toEqual(['opening', 'event']);
  });

  it('ends its streams when the host shuts down', async () => {
    host = await startTestHost({ follow: { heartbeatMs: 60_000 } });
    const journal = await host.store.create({ cwd: host.dir });
    const stream = iterate(
      host.clientFor('connect-binary').follow({ sessionId: journal.header.sessionId }),
    );
    await take(stream, 1);
    const ended = (async () => {
      try {
        for (let next = await stream.next(); next.done !== true; next = await stream.next());
        return 'ended';
      } catch (error) {
        return ConnectError.from(error).code;
      }
    })();
    await host.server.close();
    expect(await ended).toBeDefined();
    expect(host.server.stats().streams.follow).toBe(0);
  });
});
