import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SearchProvider } from '../../src/index.js';
import type { CardCase, CaseEnv } from './card-case.js';
import { createContractHarness } from './contract-harness.js';
import { fileCases } from './file-cases.js';
import { interactionCases } from './interaction-cases.js';
import { malformedCases } from './malformed-cases.js';
import { searchCases } from './search-cases.js';
import { shellCases } from './shell-cases.js';
import { webCases } from './web-cases.js';

/** A search backend answering two queries: one with sources, one failing. */
const searchProvider: SearchProvider = {
  name: 'contract',
  search(queries) {
    if (queries.includes('broken')) return Promise.reject(new Error('backend down'));
    return Promise.resolve({
      sources: [
        {
          url: 'https://example.org/paris',
          title: 'Paris',
          snippet: 'the capital',
          publishedAt: '2024-01-02',
        },
        { url: 'javascript:alert(1)', title: '', snippet: '' },
      ],
      answer: 'Paris',
      truncated: true,
    });
  },
};

let server: Server;
let env: CaseEnv;

beforeAll(async () => {
  server = createServer((req, res) => {
    switch (req.url) {
      case '/start':
        res.writeHead(302, { location: '/final' }).end();
        return;
      case '/final':
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><body><h1>Final</h1><p>The final page.</p></body></html>');
        return;
      case '/missing':
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no such page');
        return;
      case '/image':
        res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.from([0x89, 0x50]));
        return;
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = {
    h: createContractHarness({ searchProvider }),
    bare: createContractHarness(),
    web: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  };
});

afterAll(async () => {
  await env.h.dispose();
  await env.bare.dispose();
  await new Promise((resolve) => server.close(resolve));
});

async function runCase(c: CardCase): Promise<void> {
  await c.setup?.(env);
  const harness = c.bare ? env.bare : env.h;
  const args = c.argsFrom ? c.argsFrom(env) : c.args;
  const run = await harness.run(c.tool, args, c.answer === undefined ? {} : { answer: c.answer });
  expect({ running: run.runningCard.body.kind, settled: run.card.body.kind }).toEqual({
    running: c.running,
    settled: c.settled,
  });
  expect(run.runningBlock.status).toBe('running');
  expect(run.runningCard.row.state).toBe('running');
  expect(run.result.isError).toBe(c.errorCode !== '');
  expect(run.card.row.errorCode).toBe(c.errorCode);
  // A Stop is `stopped` whichever event records it; other errors are errors.
  expect(run.card.row.state).toBe(
    c.errorCode === '' ? 'ok' : c.errorCode === 'interrupted' ? 'stopped' : 'error',
  );
  expect(run.card.row).toMatchObject({ callId: run.callId, tool: c.tool, nested: false });
  expect(run.card.row.orphan).toBe(false);
  expect(run.card.row.resultText).toBe(run.text);
  await c.check?.(run, env);
}

describe('deriveCard() over real first-party tool executions', () => {
  it.each(shellCases)('$tool: $name', runCase);
  it.each(fileCases)('$tool: $name', runCase);
  it.each(searchCases)('$tool: $name', runCase);
  it.each(webCases)('$tool: $name', runCase);
  it.each(interactionCases)('$tool: $name', runCase);
  it.each(malformedCases)('$tool: $name', runCase);
});
