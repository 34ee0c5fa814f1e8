import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Code, type Interceptor } from '@connectrpc/connect';
import { afterEach, describe, expect, it } from 'vitest';
import { createJournalStore } from '@dsh/journal-file';
import { checkRequest, isLoopbackHost, resolveToken, startServer } from '../src/index.js';
import { rpcError, startTestHost, type TestHost } from './test-host.js';

let host: TestHost | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const bearer =
  (token: string): Interceptor =>
  (next) =>
  (req) => {
    req.header.set('Authorization', `Bearer ${token}`);
    return next(req);
  };

/** A raw HTTP/1.1 GET, so the test controls the Host header and the path bytes. */
function get(
  url: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request({ host: hostname, port, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('isLoopbackHost()', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['localhost', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.5', false],
    ['example.com', false],
  ])('%s -> %s', (host, expected) => {
    expect(isLoopbackHost(host)).toBe(expected);
  });
});

describe('resolveToken()', () => {
  it('keeps a configured token, needs none on loopback, generates one otherwise', () => {
    expect(resolveToken('0.0.0.0', 'given')).toEqual({ token: 'given', generated: false });
    expect(resolveToken('127.0.0.1', 'given')).toEqual({ token: 'given', generated: false });
    expect(resolveToken('127.0.0.1', undefined)).toEqual({ token: undefined, generated: false });
    const generated = resolveToken('0.0.0.0', undefined);
    expect(generated.generated).toBe(true);
    expect(generated.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(resolveToken('0.0.0.0', undefined).token).not.toBe(generated.token);
  });
});

describe('checkRequest()', () => {
  it.each([
    ['token via header', 't', { authorization: 'Bearer t' }, true],
    ['token via cookie', 't', { cookie: 'a=b; dsh_token=t' }, true],
    ['wrong token', 't', { authorization: 'Bearer x' }, false],
    ['no token sent', 't', {}, false],
    ['no token, loopback authority', undefined, { authority: '127.0.0.1:7420' }, true],
    ['no token, localhost authority', undefined, { authority: 'localhost:7420' }, true],
    ['no token, IPv6 loopback authority', undefined, { authority: '[::1]:7420' }, true],
    [
      'no token, foreign authority (DNS rebinding)',
      undefined,
      { authority: 'evil.example:7420' },
      false,
    ],
  ])('%s', (_name, token, req, ok) => {
    expect(checkRequest(token, req).ok).toBe(ok);
  });
});

describe('startServer() auth', () => {
  it('refuses to bind a non-loopback address without a token', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dsh-auth-'));
    const store = await createJournalStore({ dataDir: dir });
    await expect(startServer({ store, host: '0.0.0.0', port: 0 })).rejects.toThrow(/needs a token/);
    await store.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('enforces a configured token on RPCs (Connect and gRPC)', async () => {
    host = await startTestHost({ token: 'sekrit' });
    for (const kind of ['connect-h1', 'grpc'] as const) {
      const anonymous = await rpcError(host.clientFor(kind).describeHost({}));
      expect(anonymous?.code).toBe(Code.Unauthenticated);
      expect(anonymous?.rawMessage).toContain('Authorization: Bearer');
      const wrong = await rpcError(host.clientFor(kind, [bearer('nope')]).describeHost({}));
      expect(wrong?.code).toBe(Code.Unauthenticated);
      const facts = await host.clientFor(kind, [bearer('sekrit')]).describeHost({});
      expect(facts.capabilities).toContain('page');
    }
    expect(host.logs.filter((line) => line.includes('Unauthenticated'))).toHaveLength(4);
  });

  it('serves a non-loopback bind with its token', async () => {
    host = await startTestHost({ host: '0.0.0.0', token: 'tok' });
    const url = host.server.url.replace('0.0.0.0', '127.0.0.1');
    const anonymous = await get(url, '/');
    expect(anonymous.status).toBe(401);
    expect((await get(url, '/', { authorization: 'Bearer tok' })).status).toBe(200);
  });

  it('moves ?token= into an HttpOnly cookie for static files', async () => {
    host = await startTestHost({ token: 'tok' });
    expect((await get(host.server.url, '/')).status).toBe(401);
    expect((await get(host.server.url, '/?token=bad')).status).toBe(401);
    const login = await get(host.server.url, '/?token=tok&x=1');
    expect(login.status).toBe(303);
    expect(login.headers.location).toBe('/?x=1');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^dsh_token=tok; HttpOnly; SameSite=Strict; Path=\//);
    const page = await get(host.server.url, '/', { cookie: 'dsh_token=tok' });
    expect(page.status).toBe(200);
    expect(page.body).toContain('dsh host');
  });

  it('without a token, refuses requests addressed to a foreign host name', async () => {
    host = await startTestHost();
    const port = host.server.port;
    expect((await get(host.server.url, '/', { host: `evil.example:${port}` })).status).toBe(403);
    expect((await get(host.server.url, '/', { host: `localhost:${port}` })).status).toBe(200);
    const rebinding: Interceptor = (next) => (req) => {
      req.header.set('Host', `evil.example:${port}`);
      return next(req);
    };
    const error = await rpcError(host.clientFor('connect-h1', [rebinding]).describeHost({}));
    expect(error?.code).toBe(Code.PermissionDenied);
  });
});
