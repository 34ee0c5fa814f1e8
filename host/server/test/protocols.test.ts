import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { Code, ConnectError, createClient } from '@connectrpc/connect';
import { createGrpcWebTransport } from '@connectrpc/connect-node';
import { userMessage } from '@dsh/fixtures';
import { SessionService } from '@dsh/gen/service';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { renderStatusPage } from '../src/index.js';
import { conversation, iterate, startTestHost, take, type TestHost } from './test-host.js';

/** A raw HTTP/1.1 request, so the path bytes reach the server unnormalized. */
function raw(
  url: string,
  path: string,
  method = 'GET',
): Promise<{ status: number; type: string | undefined; body: string }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, method }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('one port, every protocol', () => {
  let host: TestHost;
  let sessionId: string;
  beforeAll(async () => {
    host = await startTestHost();
    const journal = await host.store.create({ cwd: host.dir });
    await journal.append(conversation(2));
    sessionId = journal.header.sessionId;
  });
  afterAll(() => host.close());

  it.each(['connect-h1', 'connect-h2', 'grpc'] as const)(
    '%s: unary and Follow work',
    async (kind) => {
      const client = host.clientFor(kind);
      const page = await client.page({ sessionId });
      expect(page.events).toHaveLength(14);
      const ac = new AbortController();
      const frames = await take(
        iterate(client.follow({ sessionId, afterSeq: 11 }, { signal: ac.signal })),
        3,
      );
      ac.abort();
      expect(
        frames.map((f) => (f.frame.case === 'event' ? f.frame.value.event!.seq : f.frame.case)),
      ).toEqual(['opening', 12, 13]);
    },
  );

  it('grpc-web over HTTP/1.1 works', async () => {
    const client = createClient(
      SessionService,
      createGrpcWebTransport({ baseUrl: host.server.url, httpVersion: '1.1' }),
    );
    expect((await client.describeHost({})).capabilities).toContain('follow');
  });

  it('plain JSON POST works (curl)', async () => {
    const res = await fetch(`${host.server.url}/dsh.session.v1.SessionService/Page`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId, maxMessages: 1 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { events: { event: { seq: number; type?: string } }[] };
    expect(body.events.at(-1)!.event.seq).toBe(13);
  });

  it('refuses a request message over 1 MiB with resource_exhausted', async () => {
    const error = await host.client
      .prompt({ sessionId, content: [userMessageBlock('x'.repeat(1_100_000))] })
      .then(
        () => undefined,
        (e: unknown) => ConnectError.from(e),
      );
    expect(error?.code).toBe(Code.ResourceExhausted);
  });

  it('serves the status page at / while no web client is built', async () => {
    const res = await raw(host.server.url, '/');
    expect(res.status).toBe(200);
    expect(res.type).toBe('text/html; charset=utf-8');
    expect(res.body).toContain(host.store.location);
    expect(res.body).toContain(`<tr><td>Sessions</td><td>1</td></tr>`);
    expect(res.body).toContain(`${host.server.url}/dsh.session.v1.SessionService/ListSessions`);
    expect((await raw(host.server.url, '/elsewhere')).status).toBe(404);
    expect((await raw(host.server.url, '/', 'DELETE')).status).toBe(405);
  });
});

function userMessageBlock(value: string) {
  const payload = userMessage(value);
  if (payload.case !== 'userMessage') throw new Error('unreachable');
  return payload.value.content[0]!;
}

describe('static web client', () => {
  let host: TestHost | undefined;
  let dir: string;
  afterEach(async () => {
    await host?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('serves files with content types, client routes with index.html, nothing outside the root', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-web-'));
    const webRoot = join(dir, 'dist');
    await mkdir(join(webRoot, 'assets'), { recursive: true });
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(webRoot, 'assets', 'app.js'), 'console.log(1)');
    await writeFile(join(webRoot, 'assets', 'app.css'), 'body{}');
    await writeFile(join(dir, 'secret.txt'), 'SECRET');
    host = await startTestHost({ webRoot });
    const url = host.server.url;
    // Traversal attempts are either normalized away by URL parsing (404) or refused (400).
    const cases: [string, number | 'refused', string | undefined][] = [
      ['/', 200, 'text/html; charset=utf-8'],
      ['/assets/app.js', 200, 'text/javascript; charset=utf-8'],
      ['/assets/app.css', 200, 'text/css; charset=utf-8'],
      ['/sessions/abc', 200, 'text/html; charset=utf-8'],
      ['/assets/missing.js', 404, undefined],
      ['/../secret.txt', 'refused', undefined],
      ['/%2e%2e/secret.txt', 'refused', undefined],
      ['/assets/..%2f..%2fsecret.txt', 400, undefined],
      ['/assets/..%5c..%5csecret.txt', 'refused', undefined],
      ['/%E0%A4%A', 400, undefined],
    ];
    for (const [path, status, type] of cases) {
      const res = await raw(url, path);
      const got = status === 'refused' && [400, 404].includes(res.status) ? 'refused' : res.status;
      expect({ path, status: got }).toEqual({ path, status });
      if (type !== undefined) expect(res.type).toBe(type);
      expect(res.body).not.toContain('SECRET');
    }
    expect((await raw(url, '/sessions/abc')).body).toContain('<title>app</title>');
  });

  it('serves precompressed variants the client accepts, hashed assets immutable, the shell revalidated', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-web-'));
    const webRoot = join(dir, 'dist');
    await mkdir(join(webRoot, 'assets'), { recursive: true });
    const script = 'console.log("app");'.repeat(200);
    await writeFile(join(webRoot, 'index.html'), '<!doctype html><title>app</title>');
    await writeFile(join(webRoot, 'favicon.svg'), '<svg/>');
    await writeFile(join(webRoot, 'assets', 'app-1a2b.js'), script);
    await writeFile(join(webRoot, 'assets', 'app-1a2b.js.br'), brotliCompressSync(script));
    await writeFile(join(webRoot, 'assets', 'app-1a2b.js.gz'), gzipSync(script));
    host = await startTestHost({ webRoot });
    const cases: [string, string, string | undefined, string][] = [
      ['/assets/app-1a2b.js', 'br, gzip', 'br', 'public, max-age=31536000, immutable'],
      ['/assets/app-1a2b.js', 'gzip', 'gzip', 'public, max-age=31536000, immutable'],
      ['/assets/app-1a2b.js', '', undefined, 'public, max-age=31536000, immutable'],
      ['/', 'br', undefined, 'no-cache'],
      ['/sessions/abc', '', undefined, 'no-cache'],
      ['/favicon.svg', '', undefined, 'public, max-age=300'],
    ];
    for (const [path, accept, encoding, cache] of cases) {
      const res = await fetch(host.server.url + path, {
        headers: { 'accept-encoding': accept },
        // Node's fetch decodes br and gzip bodies itself; the headers stay as sent.
      });
      expect({ path, accept, encoding: res.headers.get('content-encoding') ?? undefined }).toEqual({
        path,
        accept,
        encoding,
      });
      expect(res.headers.get('cache-control')).toBe(cache);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      if (path.endsWith('.js')) {
        expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
        expect(await res.text()).toBe(script);
      }
    }
    const first = await fetch(`${host.server.url}/assets/app-1a2b.js`);
    const etag = first.headers.get('etag');
    expect(etag).toBeTruthy();
    const again = await fetch(`${host.server.url}/assets/app-1a2b.js`, {
      headers: { 'if-none-match': etag ?? '' },
    });
    expect(again.status).toBe(304);
  });
});

describe('renderStatusPage()', () => {
  it('renders the facts, escaped', () => {
    expect(
      renderStatusPage({
        version: '1.2.3',
        location: '/home/u/.dsh/<sessions>',
        sessionCount: 4,
        baseUrl: 'http://127.0.0.1:7420',
        tokenRequired: true,
      }),
    ).toMatchSnapshot();
  });
});
