import { expect } from 'vitest';
import type { CardCase } from './card-case.js';

/** web_search (with the test's provider, without one, failing) and web_fetch. */
export const webCases: CardCase[] = [
  {
    name: 'web_search: sources (http links only) and the answer',
    tool: 'web_search',
    args: { query: 'capital of france' },
    running: 'web',
    settled: 'web',
    errorCode: '',
    check: (run) => {
      expect(run.runningCard.body).toEqual({
        kind: 'web',
        tool: 'web_search',
        state: 'running',
        queries: ['capital of france'],
      });
      expect(run.card.body).toEqual({
        kind: 'web',
        tool: 'web_search',
        state: 'ok',
        queries: ['capital of france'],
        sources: [
          {
            url: 'https://example.org/paris',
            href: 'https://example.org/paris',
            title: 'Paris',
            label: 'Paris',
            snippet: 'the capital',
            publishedAt: '2024-01-02',
          },
          {
            url: 'javascript:alert(1)',
            href: undefined,
            title: '',
            label: 'javascript:alert(1)',
            snippet: '',
            publishedAt: undefined,
          },
        ],
        answer: 'Paris',
        truncated: true,
      });
    },
  },
  {
    name: 'web_search not configured: Generic',
    tool: 'web_search',
    args: { queries: ['a', 'b'] },
    bare: true,
    running: 'web',
    settled: 'generic',
    errorCode: 'not_configured',
    check: (run) => expect(run.card.row.errorText).toMatch(/DSH_SEARXNG_URL/),
  },
  {
    name: 'web_search provider failure: Generic',
    tool: 'web_search',
    args: { query: 'broken' },
    running: 'web',
    settled: 'generic',
    errorCode: 'search_failed',
  },
  {
    name: 'web_fetch: the final URL after a redirect, and the status',
    tool: 'web_fetch',
    argsFrom: ({ web }) => ({ url: `${web}/start` }),
    running: 'web',
    settled: 'web',
    errorCode: '',
    check: (run, { web }) => {
      expect(run.runningCard.body).toEqual({
        kind: 'web',
        tool: 'web_fetch',
        state: 'running',
        url: `${web}/start`,
        href: `${web}/start`,
      });
      expect(run.card.body).toEqual({
        kind: 'web',
        tool: 'web_fetch',
        state: 'ok',
        requestedUrl: `${web}/start`,
        url: `${web}/final`,
        href: `${web}/final`,
        redirected: true,
        statusCode: 200,
        truncated: false,
        body: run.text,
      });
      expect(run.text).toContain('The final page.');
    },
  },
  {
    name: 'web_fetch HTTP 404: an error result, so Generic (meta still recorded)',
    tool: 'web_fetch',
    argsFrom: ({ web }) => ({ url: `${web}/missing` }),
    running: 'web',
    settled: 'generic',
    errorCode: 'http_error',
    check: (run, { web }) => {
      expect(JSON.parse(run.result.metaJson)).toEqual({
        url: `${web}/missing`,
        statusCode: 404,
        truncated: false,
      });
      expect(run.text).toMatch(/^HTTP 404 Not Found\n\nno such page/);
    },
  },
  {
    name: 'web_fetch of an image: Generic',
    tool: 'web_fetch',
    argsFrom: ({ web }) => ({ url: `${web}/image` }),
    running: 'web',
    settled: 'generic',
    errorCode: 'unsupported_content',
  },
];
