import { describe, expect, it } from 'vitest';
import { httpHref, webCard } from '../../src/cards/web-card.js';
import { asStopped, asSubCall, asSubCallKeepingMeta, toolBlock } from './tool-block.js';

const source = (url: string, title = 'Title') => ({ url, title, snippet: 'snippet' });
const searchMeta = {
  sources: [
    { ...source('https://example.com/a', 'A'), publishedAt: '2024-05-01' },
    source('http://example.org/b', ''),
    source('javascript:alert(1)', 'Evil'),
    source('ftp://files.example.com/x', 'FTP'),
  ],
  answer: 'The answer.',
  truncated: false,
};
const fetchMeta = { url: 'https://example.com/final', statusCode: 200, truncated: true };
const ok = (meta: unknown, content = 'body text') => ({ result: { content, meta } });

describe('webCard()', () => {
  it.each([
    {
      rule: 'running web_search: the queries',
      block: toolBlock('web_search', { query: 'vitest tables' }),
      want: { kind: 'web', tool: 'web_search', state: 'running', queries: ['vitest tables'] },
    },
    {
      rule: 'running web_search with several queries',
      block: toolBlock('web_search', { queries: ['a', 'b'] }),
      want: { kind: 'web', tool: 'web_search', state: 'running', queries: ['a', 'b'] },
    },
    {
      rule: 'running web_fetch: the URL',
      block: toolBlock('web_fetch', { url: 'https://example.com/start' }),
      want: {
        kind: 'web',
        tool: 'web_fetch',
        state: 'running',
        url: 'https://example.com/start',
        href: 'https://example.com/start',
      },
    },
    {
      rule: 'web_fetch: final URL, status, truncation and the raw body',
      block: toolBlock(
        'web_fetch',
        { url: 'https://example.com/start', prompt: 'sum up' },
        ok(fetchMeta, '<p>raw</p>'),
      ),
      want: {
        kind: 'web',
        tool: 'web_fetch',
        state: 'ok',
        requestedUrl: 'https://example.com/start',
        url: 'https://example.com/final',
        href: 'https://example.com/final',
        redirected: true,
        statusCode: 200,
        truncated: true,
        body: '<p>raw</p>',
      },
    },
    {
      rule: 'web_fetch of a non-http final URL gives no link',
      block: toolBlock(
        'web_fetch',
        { url: 'file:///etc/passwd' },
        ok({ url: 'file:///etc/passwd', statusCode: 404, truncated: false }),
      ),
      want: {
        kind: 'web',
        tool: 'web_fetch',
        state: 'ok',
        requestedUrl: 'file:///etc/passwd',
        url: 'file:///etc/passwd',
        href: undefined,
        redirected: false,
        statusCode: 404,
        truncated: false,
        body: 'body text',
      },
    },
  ])('$rule', ({ block, want }) => {
    expect(webCard(block)).toEqual(want);
  });

  it.each<[string, string, string, boolean]>([
    [
      'a trailing slash added',
      'https://docs.example.com/v2',
      'https://docs.example.com/v2/',
      false,
    ],
    ['a trailing slash removed', 'https://example.com/a/', 'https://example.com/a', false],
    ['host case and an empty path', 'https://Example.COM', 'https://example.com/', false],
    ['a default port', 'http://example.com:80/x', 'http://example.com/x', false],
    ['the fragment dropped', 'https://example.com/a#part', 'https://example.com/a', false],
    ['an empty query', 'https://example.com/a?', 'https://example.com/a', false],
    ['http upgraded to https', 'http://example.com/a', 'https://example.com/a', true],
    ['another path', 'https://example.com/start', 'https://example.com/v2/start', true],
    ['another query', 'https://example.com/a?x=1', 'https://example.com/a?x=2', true],
    ['path case matters', 'https://example.com/A', 'https://example.com/a', true],
    ['not a URL: compared as text', 'docs', 'docs/', true],
  ])('web_fetch redirected: %s', (_, requested, final, redirected) => {
    const card = webCard(
      toolBlock(
        'web_fetch',
        { url: requested },
        ok({ url: final, statusCode: 200, truncated: false }),
      ),
    );
    expect(card?.tool === 'web_fetch' && card.state === 'ok' && card.redirected).toBe(redirected);
  });

  it('web_search: sources in order, only http/https as links, label fallback, answer', () => {
    const card = webCard(toolBlock('web_search', { query: 'q' }, ok(searchMeta)));
    expect(card?.tool === 'web_search' && card.state === 'ok' && card).toMatchObject({
      answer: 'The answer.',
      truncated: false,
      sources: [
        { href: 'https://example.com/a', label: 'A', publishedAt: '2024-05-01' },
        { href: 'http://example.org/b', label: 'http://example.org/b', publishedAt: undefined },
        { href: undefined, label: 'Evil', url: 'javascript:alert(1)' },
        { href: undefined, label: 'FTP' },
      ],
    });
  });

  it.each([
    {
      meta: { sources: [], truncated: true },
      want: { sources: [], answer: undefined, truncated: true },
    },
    {
      meta: { sources: [], answer: '', truncated: false },
      want: { sources: [], answer: undefined, truncated: false },
    },
  ])('web_search without an answer: truncated=$meta.truncated', ({ meta, want }) => {
    expect(webCard(toolBlock('web_search', { query: 'q' }, ok(meta)))).toMatchObject(want);
  });

  it.each([
    { url: 'https://example.com', want: 'https://example.com' },
    { url: 'HTTP://EXAMPLE.COM/x?y#z', want: 'HTTP://EXAMPLE.COM/x?y#z' },
    { url: 'javascript:alert(1)', want: undefined },
    { url: 'data:text/html,<b>x</b>', want: undefined },
    { url: 'https://', want: undefined },
    { url: '//example.com', want: undefined },
    { url: 'https://exa mple.com', want: undefined },
    { url: ' https://example.com', want: undefined },
    { url: 'mailto:a@b.c', want: undefined },
  ])('httpHref($url) is $want', ({ url, want }) => {
    expect(httpHref(url)).toBe(want);
  });

  const search = (meta: unknown) => toolBlock('web_search', { query: 'q' }, ok(meta));
  const fetch = (meta: unknown) => toolBlock('web_fetch', { url: 'https://x.dev' }, ok(meta));
  it.each([
    { why: 'search without meta', block: search(undefined) },
    { why: 'search meta that is not JSON', block: search('<html>') },
    { why: 'search meta without sources', block: search({ truncated: false }) },
    { why: 'search meta without truncated', block: search({ sources: [] }) },
    {
      why: 'a source without a title',
      block: search({ sources: [{ url: 'https://a', snippet: '' }], truncated: false }),
    },
    {
      why: 'a source with a numeric url',
      block: search({ sources: [{ url: 1, title: '', snippet: '' }], truncated: false }),
    },
    {
      why: 'a source with a bad publishedAt',
      block: search({ sources: [{ ...source('https://a'), publishedAt: 5 }], truncated: false }),
    },
    {
      why: 'an answer that is not text',
      block: search({ sources: [], answer: {}, truncated: false }),
    },
    { why: 'fetch without meta', block: fetch(undefined) },
    { why: 'fetch without a status', block: fetch({ url: 'https://x.dev', truncated: false }) },
    { why: 'fetch with a fractional status', block: fetch({ ...fetchMeta, statusCode: 200.5 }) },
    { why: 'fetch with an empty final URL', block: fetch({ ...fetchMeta, url: '' }) },
    { why: 'fetch without truncated', block: fetch({ url: 'https://x.dev', statusCode: 200 }) },
    {
      why: 'an error result',
      block: toolBlock(
        'web_fetch',
        { url: 'https://x.dev' },
        { result: { isError: true, meta: fetchMeta } },
      ),
    },
    { why: 'an interrupted call', block: asStopped(toolBlock('web_search', { query: 'q' })) },
    {
      why: 'a running sub-call',
      block: asSubCall(toolBlock('web_fetch', { url: 'https://x.dev' })),
    },
    { why: 'a settled sub-call', block: asSubCall(search(searchMeta)) },
    { why: 'a sub-call even with meta', block: asSubCallKeepingMeta(fetch(fetchMeta)) },
    {
      why: 'a missing call head',
      block: toolBlock('web_search', { query: 'q' }, { head: false, ...ok(searchMeta) }),
    },
    { why: 'arguments that are not JSON', block: toolBlock('web_search', 'q') },
    { why: 'search without query or queries', block: toolBlock('web_search', { q: 'x' }) },
    { why: 'queries that are not all text', block: toolBlock('web_search', { queries: ['a', 1] }) },
    { why: 'empty queries', block: toolBlock('web_search', { queries: [] }) },
    { why: 'fetch without a url', block: toolBlock('web_fetch', { prompt: 'x' }) },
    { why: 'another tool', block: toolBlock('grep', { pattern: 'x' }) },
  ])('$why is Generic', ({ block }) => {
    expect(webCard(block)).toBeUndefined();
  });

  it('draws the same props for the conversation and details (snapshot)', () => {
    expect(
      webCard(toolBlock('web_search', { queries: ['a', 'b'] }, ok(searchMeta))),
    ).toMatchSnapshot();
  });
});
