import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAgentConfig } from '../src/load-agent-config.js';

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

  it('reads allowPaths (with ~ expanded) and allowNetworks from the file', async () => {
    const file = join(home, 'safety.json');
    await writeFile(
      file,
      JSON.stringify({
        allowPaths: { read: ['~/notes', '/usr/share/doc/'], write: ['/tmp/scratch'] },
        allowNetworks: ['127.0.0.1:8080', '10.0.0.0/8', '[::1]:3000'],
      }),
    );
    const result = await loadAgentConfig({ config: file }, {}, home);
    if ('error' in result) throw new Error(result.error);
    expect(result.config.allowPaths).toEqual({
      read: [join(home, 'notes'), '/usr/share/doc'],
      write: ['/tmp/scratch'],
    });
    expect(result.config.allowNetworks).toEqual([
      { text: '127.0.0.1:8080', family: 'ipv4', address: '127.0.0.1', prefix: 32, port: 8080 },
      { text: '10.0.0.0/8', family: 'ipv4', address: '10.0.0.0', prefix: 8 },
      { text: '[::1]:3000', family: 'ipv6', address: '::1', prefix: 128, port: 3000 },
    ]);
  });

  it('reads per-model context budgets and prices, and --context-budget', async () => {
    const file = join(home, 'models.json');
    await writeFile(
      file,
      JSON.stringify({
        models: {
          demo: { contextBudget: 3000 },
          'deepseek-chat': { price: { input: 0.27, output: 1.1, cacheRead: 0.07 } },
        },
      }),
    );
    const result = await loadAgentConfig({ config: file, contextBudget: 9000 }, {}, home);
    if ('error' in result) throw new Error(result.error);
    expect([...result.config.models]).toEqual([
      ['demo', { contextBudget: 3000 }],
      ['deepseek-chat', { price: { input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: 0 } }],
    ]);
    expect(result.config.contextBudget).toBe(9000);
  });

  it.each([
    { name: 'allowPaths as a list', config: { allowPaths: ['/x'] }, error: /must be an object/ },
    {
      name: 'an unknown allowPaths key',
      config: { allowPaths: { search: [] } },
      error: /"allowPaths.search" is not a setting: use "read" or "write"/,
    },
    {
      name: 'a relative allowed path',
      config: { allowPaths: { read: ['notes'] } },
      error: /absolute folders or start with "~\/", not "notes"/,
    },
    {
      name: 'a host name in allowNetworks',
      config: { allowNetworks: ['localhost'] },
      error:
        /"allowNetworks" entry "localhost" is not an address, CIDR range or address:port \(localhost is not an IP address\)/,
    },
    {
      name: 'a bad prefix',
      config: { allowNetworks: ['10.0.0.0/33'] },
      error: /the prefix length must be 0 to 32/,
    },
    { name: 'a bad port', config: { allowNetworks: ['[::1]:0'] }, error: /1 to 65535/ },
    { name: 'models as a list', config: { models: [] }, error: /"models" must be an object/ },
    {
      name: 'a fractional context budget',
      config: { models: { demo: { contextBudget: 10.5 } } },
      error: /"models.demo.contextBudget" must be a whole number of tokens of at least 1/,
    },
    {
      name: 'an unknown model setting',
      config: { models: { demo: { window: 8000 } } },
      error: /"models.demo.window" is not a setting: use "contextBudget" or "price"/,
    },
    {
      name: 'a negative price',
      config: { models: { demo: { price: { input: -1 } } } },
      error: /"models.demo.price" must be an object like/,
    },
  ])('returns an error for $name', async (c) => {
    const file = join(home, 'bad-safety.json');
    await writeFile(file, JSON.stringify(c.config));
    const result = await loadAgentConfig({ config: file }, {}, home);
    expect('error' in result && result.error).toMatch(c.error);
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
