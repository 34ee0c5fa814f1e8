import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  loadAgentConfig,
  retryDelay,
  sseEvents,
  type ApprovalPolicy,
} from '../../src/providers/index.js';
import { approvalVerdict } from '../../src/agent/index.js';

async function* bytes(parts: (string | number[])[]): AsyncGenerator<Uint8Array> {
  for (const part of parts)
    yield typeof part === 'string' ? new TextEncoder().encode(part) : Uint8Array.from(part);
}

async function events(parts: (string | number[])[]): Promise<string[]> {
  const out: string[] = [];
  for await (const data of sseEvents(bytes(parts))) out.push(data);
  return out;
}

describe('sseEvents()', () => {
  it.each([
    { name: 'LF framing', parts: ['data: a\n\ndata: b\n\n'], want: ['a', 'b'] },
    { name: 'CRLF framing', parts: ['data: a\r\n\r\ndata: b\r\n\r\n'], want: ['a', 'b'] },
    {
      name: 'CRLF split across reads',
      parts: ['data: a\r', '\n\r', '\ndata: b\r\n\r\n'],
      want: ['a', 'b'],
    },
    { name: 'multi-line data', parts: ['data: a\ndata: b\n\n'], want: ['a\nb'] },
    {
      name: 'comments and other fields',
      parts: [': keep-alive\nevent: x\nid: 1\ndata:{"x":1}\n\n'],
      want: ['{"x":1}'],
    },
    { name: 'a line split mid-way', parts: ['da', 'ta: hel', 'lo\n', '\n'], want: ['hello'] },
    {
      name: 'a UTF-8 character split across reads',
      parts: ['data: ', [0xe2, 0x82], [0xac, 0x0a, 0x0a]],
      want: ['€'],
    },
    { name: 'a lone CR as line end', parts: ['data: a\r\rdata: b\r\n\r\n'], want: ['a', 'b'] },
    {
      name: 'a truncated last event (no blank line): discarded',
      parts: ['data: a\n\ndata: {"choices":[{"del'],
      want: ['a'],
    },
    { name: 'a last event ended by one newline only', parts: ['data: [DONE]\n'], want: [] },
    { name: 'a body that ends inside a line', parts: ['data: [DONE]'], want: [] },
    { name: 'a field without a space', parts: ['data:x\n\n'], want: ['x'] },
  ])('parses $name', async (c) => {
    expect(await events(c.parts)).toEqual(c.want);
  });
});

describe('retryDelay()', () => {
  it.each([
    { attempt: 1, retryAfter: null, want: 100 },
    { attempt: 3, retryAfter: null, want: 400 },
    { attempt: 10, retryAfter: null, want: 5000 },
    { attempt: 1, retryAfter: '2', want: 2000 },
    { attempt: 1, retryAfter: '0', want: 0 },
    { attempt: 1, retryAfter: '600', want: 5000 },
    { attempt: 1, retryAfter: new Date(1_000_000 + 3000).toUTCString(), want: 3000 },
    { attempt: 2, retryAfter: 'soon', want: 200 },
  ])('attempt $attempt, Retry-After $retryAfter -> $want ms', (c) => {
    expect(retryDelay(c.attempt, c.retryAfter, 100, 5000, 1_000_000)).toBe(c.want);
  });
});

describe('loadAgentConfig()', () => {
  let home: string;
  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'dsh-config-'));
    await mkdir(join(home, '.dsh'));
    await writeFile(
      join(home, '.dsh', 'config.json'),
      JSON.stringify({
        baseUrl: 'http://file/v1',
        model: 'file-model',
        apiKey: 'file-key',
        approvals: { bash: 'allow' },
      }),
    );
    await writeFile(join(home, 'bad.json'), '{oops');
    await writeFile(
      join(home, 'bad-policy.json'),
      JSON.stringify({ approvals: { bash: 'maybe' } }),
    );
    await writeFile(join(home, 'empty.json'), '{}');
  });
  afterAll(async () => rm(home, { recursive: true, force: true }));

  it.each([
    {
      name: 'file only',
      flags: {},
      env: {},
      want: { kind: 'openai', baseUrl: 'http://file/v1', model: 'file-model', apiKey: 'file-key' },
    },
    {
      name: 'env over file',
      flags: {},
      env: { DSH_MODEL: 'env-model', DSH_API_KEY: 'env-key' },
      want: { kind: 'openai', baseUrl: 'http://file/v1', model: 'env-model', apiKey: 'env-key' },
    },
    {
      name: 'flag over env',
      flags: { model: 'flag-model', baseUrl: 'http://flag/v1' },
      env: { DSH_MODEL: 'env-model', DSH_BASE_URL: 'http://env/v1' },
      want: { kind: 'openai', baseUrl: 'http://flag/v1', model: 'flag-model', apiKey: 'file-key' },
    },
    {
      name: 'model demo',
      flags: { model: 'demo' },
      env: {},
      want: { kind: 'demo', model: 'demo' },
    },
    {
      name: 'no key, no URL',
      flags: { config: 'empty.json' },
      env: {},
      want: { kind: 'demo', model: 'demo' },
    },
    {
      name: 'key only: defaults',
      flags: { config: 'empty.json' },
      env: { DSH_API_KEY: 'k' },
      want: {
        kind: 'openai',
        baseUrl: 'https://api.deepseek.com/v1',
        model: 'deepseek-chat',
        apiKey: 'k',
      },
    },
    {
      name: 'URL only: a local server without key',
      flags: { config: 'empty.json', baseUrl: 'http://127.0.0.1:8080/v1', model: 'llama' },
      env: {},
      want: {
        kind: 'openai',
        baseUrl: 'http://127.0.0.1:8080/v1',
        model: 'llama',
        apiKey: undefined,
      },
    },
  ])('merges $name', async (c) => {
    const flags = c.flags.config ? { ...c.flags, config: join(home, c.flags.config) } : c.flags;
    const result = await loadAgentConfig(flags, c.env, home);
    if ('error' in result) throw new Error(result.error);
    expect(result.config.model).toEqual(c.want);
  });

  it('reads approvals from the file', async () => {
    const result = await loadAgentConfig({}, {}, home);
    expect('config' in result && result.config.approvals).toEqual({ bash: 'allow' });
  });

  it.each([
    { name: 'malformed JSON', file: 'bad.json', error: /cannot read the config file/ },
    {
      name: 'a bad policy',
      file: 'bad-policy.json',
      error: /"approvals.bash" must be "allow", "ask" or "deny"/,
    },
    { name: 'a missing --config file', file: 'missing.json', error: /no such config file/ },
  ])('returns an error for $name', async (c) => {
    const result = await loadAgentConfig({ config: join(home, c.file) }, {}, home);
    expect('error' in result && result.error).toMatch(c.error);
  });
});

describe('approvalVerdict()', () => {
  it.each([
    { tool: 'bash', args: '{"command":"ls"}', overrides: {}, want: 'ask' },
    { tool: 'terminal_send', args: '{}', overrides: {}, want: 'ask' },
    {
      tool: 'bash',
      args: '{"command":"ls"}',
      overrides: { bash: 'allow' as const },
      want: 'allow',
    },
    { tool: 'write', args: '{"file_path":"a.txt"}', overrides: {}, want: 'allow' },
    { tool: 'write', args: '{"file_path":"/work/p/sub/a.txt"}', overrides: {}, want: 'allow' },
    { tool: 'write', args: '{"file_path":"../a.txt"}', overrides: {}, want: 'ask' },
    { tool: 'edit', args: '{"file_path":"/etc/passwd"}', overrides: {}, want: 'ask' },
    {
      tool: 'str_replace_editor',
      args: '{"command":"create","path":"/tmp/x"}',
      overrides: {},
      want: 'ask',
    },
    { tool: 'write', args: 'not json', overrides: {}, want: 'allow' },
    { tool: 'read', args: '{"file_path":"/etc/passwd"}', overrides: {}, want: 'allow' },
    { tool: 'read', args: '{}', overrides: { read: 'deny' as const }, want: 'deny' },
  ])('$tool $args -> $want', (c) => {
    const overrides = c.overrides as Record<string, ApprovalPolicy>;
    expect(approvalVerdict(c.tool, c.args, '/work/p', overrides).policy).toBe(c.want);
  });
});
