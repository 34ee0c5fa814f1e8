import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressVerdict, parseNetworkRule, type NetworkRule } from '../src/index.js';
import { createToolHarness, loopback } from './tool-harness.js';

/** A server on 127.0.0.1 that counts the requests it gets. */
async function countingServer(
  handle: (url: string, res: import('node:http').ServerResponse) => void,
) {
  const seen: string[] = [];
  const server: Server = createServer((req, res) => {
    seen.push(req.url ?? '');
    handle(req.url ?? '', res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { server, port, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

function rule(text: string): NetworkRule {
  const parsed = parseNetworkRule(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.rule;
}

let target: Awaited<ReturnType<typeof countingServer>>;
let entry: Awaited<ReturnType<typeof countingServer>>;
beforeAll(async () => {
  target = await countingServer((_url, res) =>
    res.writeHead(200, { 'content-type': 'text/plain' }).end('private page'),
  );
  entry = await countingServer((url, res) => {
    if (url === '/gzip') {
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end(gzipSync('unzipped text'));
    }
    const to: Record<string, string> = {
      '/to-private': `http://127.0.0.1:${target.port}/hop`,
      '/to-localhost': `http://localhost:${target.port}/hop`,
      '/to-mapped': `http://[::ffff:127.0.0.1]:${target.port}/hop`,
    };
    res.writeHead(302, { location: to[url] ?? '/' }).end();
  });
});
afterAll(async () => {
  await target.close();
  await entry.close();
});

async function fetchWith(rules: NetworkRule[] | undefined, url: string) {
  const h = createToolHarness(
    rules === undefined ? { allowNetworks: [] } : { allowNetworks: rules },
  );
  try {
    return await h.run('web_fetch', { url });
  } finally {
    await h.dispose();
  }
}

describe('web_fetch network policy', () => {
  it.each([
    { name: 'an IP literal', host: () => `127.0.0.1:${target.port}` },
    { name: 'a name resolving to loopback', host: () => `localhost:${target.port}` },
    { name: 'an IPv4-mapped IPv6 literal', host: () => `[::ffff:127.0.0.1]:${target.port}` },
  ])('denies loopback by default: $name, without a request', async ({ host }) => {
    target.seen.length = 0;
    const { result, text } = await fetchWith(undefined, `http://${host()}/page`);
    expect(result.error?.code).toBe('denied');
    expect(text).toContain('(loopback)');
    expect(text).toContain(`add "127.0.0.1:${target.port}" to "allowNetworks"`);
    expect(target.seen).toEqual([]);
  });

  it.each([
    { name: 'the loopback range', rules: loopback },
    { name: 'that address and port', rules: () => [rule(`127.0.0.1:${target.port}`)] },
  ])('fetches from loopback when the config allows $name', async ({ rules }) => {
    target.seen.length = 0;
    const list = typeof rules === 'function' ? rules() : rules;
    const { result, text } = await fetchWith(list, `http://127.0.0.1:${target.port}/page`);
    expect(result.isError).toBe(false);
    expect(text).toBe('private page');
    expect(target.seen).toEqual(['/page']);
  });

  it('denies another port than the one allowed', async () => {
    const { result } = await fetchWith([rule('127.0.0.1:1')], `http://127.0.0.1:${target.port}/`);
    expect(result.error?.code).toBe('denied');
  });

  it.each(['/to-private', '/to-localhost', '/to-mapped'])(
    'checks every redirect hop: an allowed entry redirecting %s is denied',
    async (path) => {
      target.seen.length = 0;
      entry.seen.length = 0;
      const { result, text } = await fetchWith(
        [rule(`127.0.0.1:${entry.port}`)],
        `http://127.0.0.1:${entry.port}${path}`,
      );
      expect(entry.seen).toEqual([path]);
      expect(result.error?.code).toBe('denied');
      expect(text).toContain(`:${target.port}/hop`);
      expect(target.seen).toEqual([]);
    },
  );

  it('undoes gzip content encoding', async () => {
    const { text } = await fetchWith(
      [rule(`127.0.0.1:${entry.port}`)],
      `http://127.0.0.1:${entry.port}/gzip`,
    );
    expect(text).toBe('unzipped text');
  });
});

describe('addressVerdict()', () => {
  it.each([
    { address: '93.184.215.14', allowed: true },
    { address: '2606:4700::1111', allowed: true },
    { address: '127.0.0.1', kind: 'loopback' },
    { address: '127.255.0.9', kind: 'loopback' },
    { address: '::1', kind: 'loopback' },
    { address: '0.0.0.0', kind: 'unspecified ("this network")' },
    { address: '::', kind: 'unspecified' },
    { address: '10.1.2.3', kind: 'private (RFC 1918)' },
    { address: '172.31.255.255', kind: 'private (RFC 1918)' },
    { address: '172.32.0.1', allowed: true },
    { address: '192.168.1.1', kind: 'private (RFC 1918)' },
    { address: '100.64.0.1', kind: 'shared carrier-grade NAT (RFC 6598)' },
    { address: '100.128.0.1', allowed: true },
    { address: '169.254.169.254', kind: 'link-local' },
    { address: 'fe80::1', kind: 'link-local' },
    { address: 'fd00::1', kind: 'unique local (ULA)' },
    { address: 'fc00::1', kind: 'unique local (ULA)' },
    { address: '224.0.0.1', kind: 'multicast' },
    { address: 'ff02::1', kind: 'multicast' },
    { address: '255.255.255.255', kind: 'reserved or broadcast' },
    { address: '::ffff:10.0.0.1', kind: 'private (RFC 1918)' },
    { address: '::ffff:7f00:1', kind: 'loopback' },
    { address: '::ffff:8.8.8.8', allowed: true },
  ])('$address', ({ address, allowed, kind }) => {
    expect(addressVerdict(address, 80, [])).toMatchObject(
      allowed ? { allowed: true } : { allowed: false, kind },
    );
  });

  it.each([
    { rules: ['10.0.0.0/8'], address: '10.9.9.9', port: 80, allowed: true },
    { rules: ['10.0.0.0/8'], address: '192.168.0.1', port: 80, allowed: false },
    { rules: ['10.0.0.5:8080'], address: '10.0.0.5', port: 8080, allowed: true },
    { rules: ['10.0.0.5:8080'], address: '10.0.0.5', port: 8081, allowed: false },
    { rules: ['[fd00::/8]:443'], address: 'fd12::1', port: 443, allowed: true },
    { rules: ['127.0.0.1'], address: '::ffff:127.0.0.1', port: 1, allowed: true },
  ])('$rules allows $address:$port: $allowed', ({ rules, address, port, allowed }) => {
    expect(addressVerdict(address, port, rules.map(rule)).allowed).toBe(allowed);
  });
});
