import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lingerBeforeEnd, lingeringBody } from '../src/lingering-close.js';
import { startTestHost, type TestHost } from './test-host.js';

/** What a client that writes `chunks` of `chunkBytes`, `gapMs` apart, saw. */
interface Seen {
  readonly status: number;
  readonly body: string;
  /** The socket error the client's writing met, if any. */
  readonly error: string | undefined;
  /** Milliseconds from the answer to the connection's close. */
  readonly closedAfterMs: number;
}

/** POSTs a chunked body to `url` as fast as the socket takes it (or `gapMs` apart). */
function post(url: string, headers: Record<string, string>, chunks: number, gapMs = 0) {
  return new Promise<Seen>((resolve) => {
    const chunk = Buffer.alloc(256 * 1024, 'x');
    let status = 0;
    let body = '';
    let error: string | undefined;
    let answeredAt = 0;
    const req = request(url, { method: 'POST', headers, agent: false });
    req.on('error', (e: NodeJS.ErrnoException) => (error = e.code ?? e.message));
    req.on('response', (res) => {
      status = res.statusCode ?? 0;
      answeredAt = performance.now();
      res.setEncoding('utf8');
      res.on('data', (part: string) => (body += part));
      res.on('error', () => undefined);
    });
    req.on('close', () => {
      const closedAfterMs = answeredAt === 0 ? -1 : performance.now() - answeredAt;
      resolve({ status, body, error, closedAfterMs });
    });
    void (async () => {
      for (let i = 0; i < chunks && !req.destroyed; i += 1) {
        if (!req.write(chunk)) await new Promise((r) => req.once('drain', r));
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
      }
      if (!req.destroyed) req.end();
    })();
  });
}

describe('a refused HTTP/1.1 body over the limit', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(() => host.close());

  it('is answered resource_exhausted, and the client still writing reads the answer', async () => {
    const url = `${host.server.url}/dsh.session.v1.SessionService/Page`;
    const headers = { 'content-type': 'application/json', 'connect-protocol-version': '1' };
    for (let run = 0; run < 5; run += 1) {
      const seen = await post(url, headers, 64); // 16 MiB, no length
      expect(seen.error).toBeUndefined();
      expect(seen.status).toBe(429);
      expect(JSON.parse(seen.body)).toMatchObject({ code: 'resource_exhausted' });
    }
    expect((await host.client.describeHost({})).version).not.toBe('');
  });
});

describe('lingerBeforeEnd()', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    // Answers at once without reading the body, then lingers within small limits.
    server = createServer((req, res) => {
      const it = lingeringBody(req)[Symbol.asyncIterator]();
      void it.next().then(async () => {
        await it.return?.();
        res.writeHead(200); // chunked: the answer ends when the server ends it
        res.write('refused');
        await lingerBeforeEnd(req, res, { ms: 300, bytes: 2 * 1024 * 1024 });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    { name: 'a body that ends within the limits', chunks: 4, gapMs: 0, closedWithin: [0, 300] },
    { name: 'a body past the byte limit', chunks: 400, gapMs: 0, closedWithin: [0, 300] },
    {
      name: 'a body trickled past the time limit',
      chunks: 40,
      gapMs: 50,
      closedWithin: [250, 1500],
    },
  ])(
    '$name: the answer is read, then the connection closes',
    async ({ chunks, gapMs, closedWithin }) => {
      const seen = await post(url, {}, chunks, gapMs);
      expect(seen.status).toBe(200);
      expect(seen.body).toBe('refused');
      expect(seen.closedAfterMs).toBeGreaterThanOrEqual(closedWithin[0]!);
      expect(seen.closedAfterMs).toBeLessThan(closedWithin[1]!);
    },
  );
});
