import { gzipSync } from 'node:zlib';
import { connect, type ClientHttp2Session } from 'node:http2';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope, sendRaw, type RawProtocol } from './raw-rpc.js';
import { startTestHost, type TestHost } from './test-host.js';

/** Every RPC of SessionService, with whether it streams its response. */
const methods = [
  ['DescribeHost', false],
  ['ListSessions', false],
  ['WatchSessions', true],
  ['CreateSession', false],
  ['Page', false],
  ['Follow', true],
  ['Prompt', false],
  ['Cancel', false],
  ['Respond', false],
] as const;

const protocols: RawProtocol[] = ['connect-json', 'connect-proto', 'grpc', 'grpc-web'];

/** Bytes that are neither valid JSON nor valid protobuf (wire type 7, cut varints). */
const junk = Uint8Array.from([0xff, 0xff, 0xff, 0xff, 0x0f, 0x07, 0x00, 0xfe]);
/** A gzip stream cut in the middle: a truncated body, not a corrupt header. */
const cutGzip = gzipSync(Buffer.from(JSON.stringify({ sessionId: 'x'.repeat(400) }))).subarray(
  0,
  30,
);

function encodingHeader(protocol: RawProtocol, streaming: boolean): string {
  if (protocol.startsWith('grpc')) return 'grpc-encoding';
  return streaming ? 'connect-content-encoding' : 'content-encoding';
}

/** A body for `protocol` carrying `data` the way the protocol frames it. */
function framed(protocol: RawProtocol, streaming: boolean, data: Uint8Array, flags = 0) {
  return protocol.startsWith('grpc') || streaming ? envelope(data, flags) : data;
}

let host: TestHost;
let h2: ClientHttp2Session;
beforeAll(async () => {
  host = await startTestHost({ follow: { heartbeatMs: 60_000 } });
  h2 = connect(host.server.url);
});
afterAll(async () => {
  h2.close();
  await host.close();
});

describe('broken request bodies', () => {
  const cases = [
    {
      name: 'binary junk',
      body: (p: RawProtocol, s: boolean) => framed(p, s, junk),
      headers: () => ({}),
    },
    {
      name: 'gzip garbage',
      body: (p: RawProtocol, s: boolean) => framed(p, s, cutGzip, 1),
      headers: (p: RawProtocol, s: boolean) => ({ [encodingHeader(p, s)]: 'gzip' }),
    },
    {
      name: 'random bytes declared gzip',
      body: (p: RawProtocol, s: boolean) => framed(p, s, junk, 1),
      headers: (p: RawProtocol, s: boolean) => ({ [encodingHeader(p, s)]: 'gzip' }),
    },
  ];
  const rows = cases.flatMap((c) =>
    protocols.flatMap((protocol) =>
      methods.map(([method, streaming]) => ({ ...c, protocol, method, streaming })),
    ),
  );
  it.each(rows)('$name, $protocol, $method: invalid_argument', async (row) => {
    const res = await sendRaw(
      host.server.url,
      {
        protocol: row.protocol,
        method: row.method,
        streaming: row.streaming,
        body: row.body(row.protocol, row.streaming),
        headers: row.headers(row.protocol, row.streaming),
      },
      h2,
    );
    expect({ code: res.code, message: res.message }).toMatchObject({
      code: 'invalid_argument',
      message: expect.stringMatching(/./),
    });
  });

  const enveloped = protocols.flatMap((protocol) =>
    methods
      .filter(([, streaming]) => streaming || protocol.startsWith('grpc'))
      .map(([method, streaming]) => ({ protocol, method, streaming })),
  );
  const framings = [
    { name: 'a cut envelope header', body: Uint8Array.from([0, 0, 0]) },
    { name: 'an envelope promising more bytes', body: envelope(junk).subarray(0, 7) },
    { name: 'no message at all', body: new Uint8Array(0) },
    {
      name: 'two messages',
      body: Buffer.concat([envelope(new Uint8Array(0)), envelope(new Uint8Array(0))]),
    },
    { name: 'unknown envelope flags', body: envelope(new Uint8Array(0), 0x40) },
    { name: 'a compressed envelope without an encoding', body: envelope(cutGzip, 1) },
  ];
  it.each(framings.flatMap((f) => enveloped.map((e) => ({ ...f, ...e }))))(
    '$name, $protocol, $method: invalid_argument',
    async (row) => {
      const res = await sendRaw(host.server.url, { ...row }, h2);
      expect(res.code).toBe('invalid_argument');
    },
  );

  it('logs none of them as an internal error', () => {
    expect(host.logs.filter((line) => /internal|stack|\n\s+at /i.test(line))).toEqual([]);
  });
});

describe('unknown RPC paths', () => {
  it.each([
    ['connect-json', '/dsh.session.v1.SessionService/Nope', 'unimplemented'],
    ['connect-proto', '/dsh.session.v1.Other/Page', 'unimplemented'],
    ['grpc', '/dsh.session.v1.SessionService/Nope', 'unimplemented'],
    ['grpc-web', '/no.such.Service/Call', 'unimplemented'],
  ] as const)('%s %s answers %s naming the service', async (protocol, path, code) => {
    const res = await sendRaw(
      host.server.url,
      { protocol, method: 'x', streaming: false, path, body: new Uint8Array(0) },
      h2,
    );
    expect(res.code).toBe(code);
    expect(res.message).toContain('dsh.session.v1.SessionService (DescribeHost, ListSessions');
    if (protocol.startsWith('connect')) {
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toBe('application/json');
    }
  });

  it('a GET of an RPC-shaped path gets the JSON error too; static paths stay static', async () => {
    const rpc = await fetch(`${host.server.url}/dsh.session.v1.SessionService/Nope`);
    expect(rpc.status).toBe(404);
    expect(await rpc.json()).toMatchObject({ code: 'unimplemented' });
    const page = await fetch(`${host.server.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });
});

describe('fuzzed requests (fast-check)', () => {
  const methodArb = fc.constantFrom(...methods);
  const protocolArb = fc.constantFrom(...protocols);
  const bodyArb = fc.oneof(
    fc.uint8Array({ maxLength: 200 }),
    fc
      .tuple(fc.integer({ min: 0, max: 255 }), fc.uint8Array({ maxLength: 120 }))
      .map(([flags, data]) => envelope(data, flags)),
    fc
      .tuple(fc.uint8Array({ maxLength: 120 }), fc.integer({ min: 0, max: 130 }))
      .map(([data, cut]) => envelope(data).subarray(0, cut)),
    fc.uint8Array({ maxLength: 200 }).map((data) => envelope(gzipSync(data), 1)),
    fc.uint8Array({ maxLength: 200 }).map((data) => gzipSync(data).subarray(0, 20)),
    fc.json().map((text) => new TextEncoder().encode(text)),
    fc.json().map((text) => envelope(new TextEncoder().encode(text))),
  );
  const encodingArb = fc.constantFrom(undefined, 'gzip', 'br', 'identity', 'zstd');

  it('never answers internal or unknown, and the host keeps serving', async () => {
    await fc.assert(
      fc.asyncProperty(
        protocolArb,
        methodArb,
        bodyArb,
        encodingArb,
        async (protocol, [method, streaming], body, encoding) => {
          const headers: Record<string, string> =
            encoding === undefined ? {} : { [encodingHeader(protocol, streaming)]: encoding };
          const res = await sendRaw(
            host.server.url,
            { protocol, method, streaming, body, headers, openStreamMs: 300 },
            h2,
          );
          expect(res.code, `${res.code}: ${res.message}`).not.toMatch(/^(internal|unknown)$/);
        },
      ),
      { numRuns: 600 },
    );
    const answer = await host.client.describeHost({});
    expect(answer.capabilities).toContain('page');
    expect(host.logs.filter((line) => /internal/i.test(line))).toEqual([]);
  }, 120_000);
});
