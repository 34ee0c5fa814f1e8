import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createSearxngProvider } from '../src/index.js';
import { createToolHarness, type ToolHarness } from './tool-harness.js';

let server: Server;
let base: string;
const searches: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    switch (url.pathname) {
      case '/page':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(
          '<html><head><title>T</title><script>var hidden = 1;</script></head><body><h1>Hello</h1><p>A <a href="/x">link</a> and <b>bold</b> text.</p><img src="a.png"></body></html>',
        );
        return;
      case '/plain':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('just text');
        return;
      case '/redirect':
        res.writeHead(302, { location: '/hop2' });
        res.end();
        return;
      case '/hop2':
        res.writeHead(301, { location: `${base}/page` });
        res.end();
        return;
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        res.end();
        return;
      case '/to-file':
        res.writeHead(302, { location: 'file:///etc/passwd' });
        res.end();
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' });
        res.end('no such page');
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50]));
        return;
      case '/huge':
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('y'.repeat(3_000_000));
        return;
      case '/search': {
        const q = url.searchParams.get('q') ?? '';
        searches.push(`${q}|${url.searchParams.get('format')}`);
        if (q === 'broken') {
          res.writeHead(500);
          res.end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            answers: q === 'capital of france' ? ['Paris'] : [],
            results: Array.from({ length: q === 'many' ? 12 : 2 }, (_, i) => ({
              url: `https://example.org/${q.replace(/\W/g, '-')}/${i}`,
              title: `${q} #${i}`,
              content: `snippet ${i}`,
              ...(i === 0 ? { publishedDate: '2024-01-02' } : {}),
            })),
          }),
        );
        return;
      }
      default:
        res.writeHead(500);
        res.end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

let h: ToolHarness;
beforeEach(() => {
  h = createToolHarness({ searchProvider: createSearxngProvider(`${base}/`) });
});
afterEach(async () => {
  await h.dispose();
});

describe('web_fetch', () => {
  it('follows redirects and turns HTML into text', async () => {
    const { result, text, meta } = await h.run('web_fetch', {
      url: `${base}/redirect`,
      prompt: 'the heading',
    });
    expect(result.isError).toBe(false);
    expect(meta).toEqual({ url: `${base}/page`, statusCode: 200, truncated: false });
    expect(text).toContain('HELLO');
    expect(text).toContain('A link and bold text.');
    expect(text).not.toContain('<');
    expect(text).not.toContain('hidden');
  });

  it.each([
    { path: '/plain', text: 'just text', truncated: false },
    { path: '/huge', text: undefined, truncated: true },
  ])('$path', async ({ path, text, truncated }) => {
    const ran = await h.run('web_fetch', { url: `${base}${path}` });
    expect(ran.result.isError).toBe(false);
    expect(ran.meta).toEqual({ url: `${base}${path}`, statusCode: 200, truncated });
    if (text !== undefined) expect(ran.text).toBe(text);
    else expect(ran.text.endsWith('[content truncated]')).toBe(true);
  });

  it('reports HTTP errors with the page and metadata', async () => {
    const { result, text, meta } = await h.run('web_fetch', { url: `${base}/missing` });
    expect(result.error?.code).toBe('http_error');
    expect(text).toBe('HTTP 404 Not Found\n\nno such page');
    expect(meta).toEqual({ url: `${base}/missing`, statusCode: 404, truncated: false });
  });

  it.each([
    { path: '/loop', code: 'too_many_redirects' },
    { path: '/to-file', code: 'fetch_failed' },
    { path: '/image', code: 'unsupported_content' },
  ])('fails: $path -> $code', async ({ path, code }) => {
    const { result } = await h.run('web_fetch', { url: `${base}${path}` });
    expect(result.error?.code).toBe(code);
  });

  it('fails clearly when nothing listens', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const { result, text } = await h.run('web_fetch', { url: `http://127.0.0.1:${port}/` });
    expect(result.error?.code).toBe('fetch_failed');
    expect(text).toContain('ECONNREFUSED');
  });

  it.each([{ url: 'ftp://example.org/' }, { url: 'file:///etc/passwd' }, { url: 'not a url' }])(
    'rejects $url',
    async ({ url }) => {
      const { result } = await h.run('web_fetch', { url });
      expect(result.error?.code).toBe('invalid_arguments');
    },
  );
});

describe('web_search', () => {
  it('queries the provider and records sources', async () => {
    searches.length = 0;
    const { result, text, meta } = await h.run('web_search', { query: 'capital of france' });
    expect(result.isError).toBe(false);
    expect(searches).toEqual(['capital of france|json']);
    expect(meta).toEqual({
      answer: 'Paris',
      truncated: false,
      sources: [
        {
          url: 'https://example.org/capital-of-france/0',
          title: 'capital of france #0',
          snippet: 'snippet 0',
          publishedAt: '2024-01-02',
        },
        {
          url: 'https://example.org/capital-of-france/1',
          title: 'capital of france #1',
          snippet: 'snippet 1',
        },
      ],
    });
    expect(text).toMatchInlineSnapshot(`
      "Results for "capital of france":
      Answer: Paris
      1. capital of france #0
         https://example.org/capital-of-france/0
         published 2024-01-02
         snippet 0
      2. capital of france #1
         https://example.org/capital-of-france/1
         snippet 1"
    `);
  });

  it('runs several queries and marks truncation', async () => {
    const { meta } = await h.run('web_search', { queries: ['a', 'many'] });
    expect(meta).toMatchObject({ truncated: true });
    expect((meta as { sources: unknown[] }).sources).toHaveLength(10);
  });

  it('reports provider failures', async () => {
    const { result, text } = await h.run('web_search', { query: 'broken' });
    expect(result.error?.code).toBe('search_failed');
    expect(text).toContain('HTTP 500');
  });

  it('says how to configure a provider when there is none', async () => {
    const bare = createToolHarness();
    try {
      const { result, text } = await bare.run('web_search', { query: 'x' });
      expect(result.error?.code).toBe('not_configured');
      expect(text).toContain('no web search provider is configured: set DSH_SEARXNG_URL');
    } finally {
      await bare.dispose();
    }
  });

  it.each([{ args: {} }, { args: { query: 'a', queries: ['b'] } }, { args: { queries: [] } }])(
    'rejects $args',
    async ({ args }) => {
      const { result } = await h.run('web_search', args);
      expect(result.error?.code).toBe('invalid_arguments');
    },
  );
});
