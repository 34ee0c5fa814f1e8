import type { IncomingMessage } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { fromBinary, toJson } from '@bufbuild/protobuf';
import { ConnectError, createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { userMessage } from '@dsh/fixtures';
import { ListSessionsResponseSchema, SessionService } from '@dsh/gen/service';
import { afterEach, describe, expect, it } from 'vitest';
import { acceptsGzip, directUnaryFormat, type UnaryFormat } from '../src/direct-unary.js';
import { sendRaw } from './raw-rpc.js';
import { startTestHost, type TestHost } from './test-host.js';

describe('directUnaryFormat', () => {
  const request = (method: string, headers: Record<string, string>) =>
    ({ method, headers }) as unknown as IncomingMessage;
  it.each<[string, string, Record<string, string>, UnaryFormat | undefined]>([
    ['binary Connect', 'POST', { 'content-type': 'application/proto' }, 'binary'],
    ['upper case', 'POST', { 'content-type': 'Application/Proto' }, 'binary'],
    [
      'identity encoding',
      'POST',
      { 'content-type': 'application/proto', 'content-encoding': 'identity' },
      'binary',
    ],
    ['Connect JSON', 'POST', { 'content-type': 'application/json' }, 'json'],
    [
      'JSON with a charset',
      'POST',
      { 'content-type': 'application/json; charset=utf-8' },
      undefined,
    ],
    ['gRPC', 'POST', { 'content-type': 'application/grpc+proto' }, undefined],
    ['a parameter', 'POST', { 'content-type': 'application/proto; charset=x' }, undefined],
    [
      'gzip',
      'POST',
      { 'content-type': 'application/proto', 'content-encoding': 'gzip' },
      undefined,
    ],
    [
      'a timeout',
      'POST',
      { 'content-type': 'application/json', 'connect-timeout-ms': '1000' },
      undefined,
    ],
    ['GET', 'GET', { 'content-type': 'application/proto' }, undefined],
  ])('%s: %s', (_name, method, headers, format) => {
    expect(directUnaryFormat(request(method, headers))).toBe(format);
  });
});

describe('acceptsGzip', () => {
  it.each<[string | string[] | undefined, boolean]>([
    [undefined, false],
    ['', false],
    ['gzip', true],
    ['gzip, deflate, br', true],
    ['br, GZIP;q=0.5', true],
    ['*', true],
    ['gzip;q=0', false],
    ['gzip; q=0.0, br', false],
    ['br', false],
    ['xgzip', false],
    [['br', 'gzip'], true],
  ])('%j: %s', (header, accepted) => {
    expect(acceptsGzip(header)).toBe(accepted);
  });
});

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

/** Three sessions, the middle one archived; ids oldest first. */
async function threeSessions(test: TestHost): Promise<string[]> {
  const ids: string[] = [];
  for (const prompt of ['first', 'second', 'third']) {
    const journal = await test.store.create({ cwd: test.dir });
    await journal.append([userMessage(prompt)]);
    ids.push(journal.header.sessionId);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await test.client.updateSession({ sessionId: ids[1]!, archived: true });
  return ids;
}

/** A ListSessions answer as JSON, or its error as code and message. */
async function listed(client: Client<typeof SessionService>, request: object) {
  try {
    return toJson(ListSessionsResponseSchema, await client.listSessions(request));
  } catch (error) {
    const e = ConnectError.from(error);
    return { code: e.code, message: e.rawMessage };
  }
}

describe('ListSessions written directly', () => {
  it('answers what the Connect path answers: pages, archived, a bad token', async () => {
    host = await startTestHost();
    const ids = await threeSessions(host);
    const binary = host.clientFor('connect-binary');
    const first = await listed(binary, { pageSize: 1 });
    expect(first).toMatchObject({ sessions: [{ id: ids[2] }] });
    const token = (first as { nextPageToken: string }).nextPageToken;
    const requests = [
      {},
      { includeArchived: true },
      { pageSize: 1 },
      { pageSize: 1, pageToken: token },
      { pageToken: 'not-a-token' },
    ];
    for (const request of requests) {
      expect(await listed(binary, request)).toEqual(await listed(host.client, request));
    }
    expect(await listed(binary, {})).toMatchObject({
      sessions: [{ id: ids[2] }, { id: ids[0] }],
    });
    expect(await listed(binary, { pageToken: 'not-a-token' })).toMatchObject({
      code: 3, // invalid_argument
      message: expect.stringMatching(/^page_token "not-a-token" is not one this host gave/),
    });
  });

  it('answers binary Connect over h2c what the Connect path answers over HTTP/1.1', async () => {
    host = await startTestHost();
    await threeSessions(host);
    const h2 = createClient(
      SessionService,
      createConnectTransport({ baseUrl: host.server.url, httpVersion: '2', useBinaryFormat: true }),
    );
    for (const request of [{}, { includeArchived: true }, { pageToken: 'not-a-token' }]) {
      expect(await listed(h2, request)).toEqual(await listed(host.client, request));
    }
  });

  it('answers Connect JSON byte for byte as the Connect path does, and fails as it does', async () => {
    host = await startTestHost();
    const ids = await threeSessions(host);
    const call = (body: string, connectPath: boolean) =>
      sendRaw(host!.server.url, {
        protocol: 'connect-json',
        method: 'ListSessions',
        streaming: false,
        body: new TextEncoder().encode(body),
        // A timeout makes a request one that Connect serves itself.
        headers: connectPath ? { 'connect-timeout-ms': '60000' } : {},
      });
    const bodies = [
      '',
      '{}',
      '{"pageSize":1}',
      '{"includeArchived":true}',
      '{"include_archived":true}',
      '{"bogus":1}',
      'not json',
      '{"pageSize":"x"}',
      '{"pageToken":"zzz"}',
    ];
    for (const body of bodies) {
      const direct = await call(body, false);
      const connect = await call(body, true);
      const seen = (r: typeof direct) => ({
        body,
        status: r.status,
        type: r.headers['content-type'],
        text: r.body.toString(),
      });
      expect(seen(direct)).toEqual(seen(connect));
    }
    const listed = JSON.parse((await call('{}', false)).body.toString()) as {
      sessions: { id: string }[];
    };
    expect(listed.sessions.map((s) => s.id)).toEqual([ids[2], ids[0]]);
  });

  it('answers each change after a list asked again unchanged, binary and JSON: new, renamed, archived', async () => {
    host = await startTestHost();
    const ids = await threeSessions(host);
    const binary = host.clientFor('connect-binary');
    // Binary and JSON answers are kept apart; both must follow every change.
    const titles = async () => {
      const [binaryTitles, jsonTitles] = await Promise.all(
        [binary, host!.client].map(async (client) =>
          (await client.listSessions({})).sessions.map(
            (s) => `${s.id === ids[0] ? 'A' : 'x'}:${s.title}`,
          ),
        ),
      );
      expect(jsonTitles).toEqual(binaryTitles);
      return binaryTitles;
    };
    expect(await titles()).toEqual(['x:third', 'A:first']);
    expect(await titles()).toEqual(['x:third', 'A:first']);
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append([userMessage('fourth')]);
    expect(await titles()).toEqual(['x:fourth', 'x:third', 'A:first']);
    await host.client.updateSession({ sessionId: ids[0]!, title: 'renamed' });
    expect(await titles()).toEqual(['A:renamed', 'x:fourth', 'x:third']);
    await host.client.updateSession({ sessionId: ids[0]!, archived: true });
    expect(await titles()).toEqual(['x:fourth', 'x:third']);
  });

  it('gzips a large answer when the client accepts it, and sends it plain otherwise', async () => {
    host = await startTestHost();
    for (let i = 0; i < 30; i += 1) {
      const journal = await host.store.create({ cwd: host.dir });
      await journal.append([userMessage(`prompt ${i}`)]);
    }
    const list = async (accept: string) =>
      sendRaw(host!.server.url, {
        protocol: 'connect-proto',
        method: 'ListSessions',
        streaming: false,
        body: new Uint8Array(0),
        headers: { 'accept-encoding': accept },
      });
    const plain = await list('identity');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.length).toBeGreaterThan(1024);
    expect(fromBinary(ListSessionsResponseSchema, plain.body).sessions).toHaveLength(30);
    for (const accept of ['gzip', 'br, gzip']) {
      const zipped = await list(accept);
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.body.length).toBeLessThan(plain.body.length);
      expect(gunzipSync(zipped.body).equals(plain.body)).toBe(true);
    }
  });

  it('refuses without the token and answers a body that does not parse, in Connect JSON', async () => {
    host = await startTestHost({ token: 'secret-token' });
    const call = (body: Uint8Array, headers: Record<string, string> = {}) =>
      sendRaw(host!.server.url, {
        protocol: 'connect-proto',
        method: 'ListSessions',
        streaming: false,
        body,
        headers,
      });
    const refused = await call(new Uint8Array(0));
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toBe('application/json');
    expect(refused.code).toBe('unauthenticated');
    const garbage = await call(new Uint8Array([0xff, 0xff, 0xff]), {
      authorization: 'Bearer secret-token',
    });
    expect(garbage.status).toBe(400);
    expect(garbage.code).toBe('invalid_argument');
    expect(garbage.message).toMatch(
      /^the request is not a valid binary dsh\.session\.v1\.ListSessionsRequest \(/,
    );
    const served = await call(new Uint8Array(0), { authorization: 'Bearer secret-token' });
    expect(served.status).toBe(200);
    expect(fromBinary(ListSessionsResponseSchema, served.body).sessions).toEqual([]);
  });
});
