import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseServeArgs } from '../src/parse-serve-args.js';

const dshBin = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));

describe('parseServeArgs()', () => {
  const base = {
    port: 7420,
    host: '127.0.0.1',
    token: undefined,
    fixtureDirs: [],
    model: {},
    limits: {},
    store: { kind: 'file' },
  };
  it.each([
    [
      'defaults',
      [],
      {},
      { kind: 'serve', config: { ...base, dataDir: join(homedir(), '.dsh/sessions') } },
    ],
    [
      'flags',
      [
        'serve',
        '--port',
        '0',
        '--host',
        '0.0.0.0',
        '--token',
        't',
        '--data-dir',
        'd',
        '--fixtures',
        'a',
        '--fixtures',
        '/b',
      ],
      {},
      {
        kind: 'serve',
        config: {
          port: 0,
          host: '0.0.0.0',
          token: 't',
          dataDir: '/w/d',
          fixtureDirs: ['/w/a', '/b'],
          model: {},
          limits: {},
          store: { kind: 'file' },
        },
      },
    ],
    [
      'a PostgreSQL store from --store',
      ['--store', 'postgres://dsh@db:5432/dsh'],
      {},
      {
        kind: 'serve',
        config: {
          ...base,
          dataDir: join(homedir(), '.dsh/sessions'),
          store: { kind: 'postgres', url: 'postgres://dsh@db:5432/dsh' },
        },
      },
    ],
    [
      'a PostgreSQL store from DSH_STORE, and --store file over it',
      ['--store', 'file'],
      { DSH_STORE: 'postgresql://db/dsh' },
      { kind: 'serve', config: { ...base, dataDir: join(homedir(), '.dsh/sessions') } },
    ],
    [
      'DSH_STORE alone',
      [],
      { DSH_STORE: 'postgresql://db/dsh' },
      {
        kind: 'serve',
        config: {
          ...base,
          dataDir: join(homedir(), '.dsh/sessions'),
          store: { kind: 'postgres', url: 'postgresql://db/dsh' },
        },
      },
    ],
    [
      'environment',
      [],
      { DSH_PORT: '9000', DSH_HOST: '::1', DSH_TOKEN: 'e', DSH_DATA_DIR: '~/x' },
      {
        kind: 'serve',
        config: { ...base, port: 9000, host: '::1', token: 'e', dataDir: join(homedir(), 'x') },
      },
    ],
    [
      'flags over environment',
      ['--port', '1'],
      { DSH_PORT: '9000' },
      { kind: 'serve', config: { ...base, port: 1, dataDir: join(homedir(), '.dsh/sessions') } },
    ],
    [
      'empty environment variables count as unset',
      [],
      { DSH_PORT: '', DSH_HOST: '', DSH_TOKEN: '', DSH_DATA_DIR: '' },
      { kind: 'serve', config: { ...base, dataDir: join(homedir(), '.dsh/sessions') } },
    ],
    [
      'model flags',
      [
        '--model',
        'm',
        '--base-url',
        'http://127.0.0.1:8080/v1',
        '--api-key',
        'k',
        '--config',
        'c.json',
      ],
      {},
      {
        kind: 'serve',
        config: {
          ...base,
          dataDir: join(homedir(), '.dsh/sessions'),
          model: {
            model: 'm',
            baseUrl: 'http://127.0.0.1:8080/v1',
            apiKey: 'k',
            config: '/w/c.json',
          },
        },
      },
    ],
    ['--help', ['--help'], {}, { kind: 'help' }],
    ['-v', ['-v'], {}, { kind: 'version' }],
  ])('%s', (_name, argv, env, expected) => {
    expect(parseServeArgs(argv, env, '/w')).toEqual(expected);
  });

  describe('the token', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'dsh-token-'));
      await writeFile(join(dir, 'token'), 'from-file\nignored\n');
      await writeFile(join(dir, 'empty'), '\n');
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));
    const tokenOf = (argv: string[], env: Record<string, string>) => {
      const result = parseServeArgs(argv, env, dir);
      return result.kind === 'serve' ? result.config.token : result;
    };
    it.each([
      ['--token', ['--token', 'flag'], {}, 'flag'],
      ['--token-file (first line, trimmed)', ['--token-file', 'token'], {}, 'from-file'],
      ['DSH_TOKEN', [], { DSH_TOKEN: 'env' }, 'env'],
      ['DSH_TOKEN_FILE', [], { DSH_TOKEN_FILE: 'token' }, 'from-file'],
      ['--token-file over DSH_TOKEN', ['--token-file', 'token'], { DSH_TOKEN: 'env' }, 'from-file'],
      ['DSH_TOKEN over DSH_TOKEN_FILE', [], { DSH_TOKEN: 'env', DSH_TOKEN_FILE: 'token' }, 'env'],
      ['none', [], {}, undefined],
    ])('comes from %s', (_name, argv, env, want) => {
      expect(tokenOf(argv, env)).toBe(want);
    });
    it.each([
      ['both flags', ['--token', 'a', '--token-file', 'token'], /not both/],
      ['a missing file', ['--token-file', 'nope'], /cannot read the token file .*nope \(ENOENT\)/],
      ['an empty file', ['--token-file', 'empty'], /is empty: put the token on its first line/],
    ])('refuses %s', (_name, argv, message) => {
      expect(tokenOf(argv, {})).toMatchObject({
        kind: 'error',
        message: expect.stringMatching(message),
      });
    });
    it('warns in --help that --token shows in ps', async () => {
      const { usage } = await import('../src/parse-serve-args.js');
      expect(usage).toMatch(/--token-file FILE/);
      expect(usage).toMatch(/other users of this machine\s+can read it in `ps`/);
    });
  });

  it('reads the limit flags', () => {
    const result = parseServeArgs(
      [
        '--headers-timeout',
        '1000',
        '--request-timeout',
        '2000',
        '--idle-timeout',
        '3000',
        '--stall-timeout',
        '4000',
        '--max-connections',
        '10',
        '--max-connections-per-client',
        '5',
        '--max-streams-per-client',
        '2',
      ],
      {},
      '/w',
    );
    expect(result.kind === 'serve' && result.config.limits).toEqual({
      headersTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      idleTimeoutMs: 3000,
      stallTimeoutMs: 4000,
      maxConnections: 10,
      maxConnectionsPerClient: 5,
      maxStreamsPerClient: 2,
    });
  });

  it('reads --context-budget into the model flags', () => {
    const result = parseServeArgs(['--context-budget', '8000'], {}, '/w');
    expect(result.kind === 'serve' && result.config.model).toEqual({ contextBudget: 8000 });
  });

  it.each([
    ['a bad context budget', ['--context-budget', '8k'], /bad --context-budget "8k"/],
    ['a bad limit', ['--stall-timeout', '5s'], /bad --stall-timeout "5s": use a whole number/],
    ['a zero limit', ['--max-connections', '0'], /bad --max-connections "0"/],
    ['an unknown flag', ['--bogus'], /Unknown option '--bogus'/],
    ['a bad port', ['--port', 'http'], /bad port "http"/],
    ['a port out of range', ['--port', '70000'], /bad port/],
    ['a missing value', ['--port'], /argument missing/],
    ['an unknown command', ['start'], /unknown command "start"/],
    ['an extra argument', ['serve', 'x'], /unexpected argument "x"/],
    [
      'a store that is no PostgreSQL URL',
      ['--store', 'mysql://db'],
      /bad --store "mysql:\/\/db": use file, or a PostgreSQL URL/,
    ],
  ])('refuses %s', (_name, argv, message) => {
    const result = parseServeArgs(argv, {}, '/w');
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' && result.message).toMatch(message);
  });
});

describe('dsh serve (subprocess)', () => {
  let dir: string;
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('prints its URL, answers DescribeHost, and exits 0 on SIGTERM', async () => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-cli-'));
    const dataDir = join(dir, 'sessions');
    const child = spawn(process.execPath, [dshBin, 'serve', '--port', '0', '--data-dir', dataDir], {
      env: { ...process.env, DSH_TOKEN: '', DSH_HOST: '', DSH_PORT: '', DSH_DATA_DIR: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) =>
      child.once('exit', (code) => resolve(code)),
    );
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        const match = /serving (http:\/\/127\.0\.0\.1:\d+)/.exec(stdout);
        if (match) resolve(match[1]!);
      });
      void exited.then((code) => reject(new Error(`dsh exited ${code}: ${stdout}${stderr}`)));
    });
    const client = createClient(
      SessionService,
      createConnectTransport({ baseUrl: url, httpVersion: '1.1' }),
    );
    const facts = await client.describeHost({});
    expect(facts.capabilities).toContain('follow');
    // The models the host runs, its default first; the offline demo model always runs.
    expect(facts.models[0]).toBe(facts.defaultModel);
    expect(facts.models).toContain('demo');
    const seeded = (await readdir(dataDir)).filter((name) => name.endsWith('.jsonl'));
    const listed = await client.listSessions({});
    expect(listed.sessions).toHaveLength(seeded.length);
    if (seeded.length === 0) expect(stdout).toContain('no demo sessions seeded');
    else expect(stdout).toContain(`seeded ${seeded.length} demo sessions`);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(stdout).toContain('SIGTERM: shutting down');
  });

  it.each([
    ['an unknown flag', 2, ['--nope'], /Unknown option '--nope'[\s\S]*usage: dsh/],
    ['--help', 0, ['--help'], /usage: dsh \[serve\]/],
    ['--version', 0, ['--version'], /^dsh \d+\.\d+\.\d+/],
    [
      'an address of another machine',
      1,
      ['--host', '192.0.2.1', '--port', '0'],
      /cannot bind 192\.0\.2\.1/,
    ],
  ])('%s exits %s', async (_name, code, argv, output) => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-cli-'));
    const child = spawn(process.execPath, [dshBin, ...argv], {
      env: { ...process.env, DSH_DATA_DIR: join(dir, 'sessions') },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(text).toMatch(output);
    expect(exitCode).toBe(code);
  });

  it.each([
    ['from its bundle', {}],
    ['from the sources through tsx', { DSH_NO_BUNDLE: '1' }],
  ])('runs %s, printing nothing but the answer', async (_name, extra) => {
    dir = await mkdtemp(join(tmpdir(), 'dsh-cli-'));
    const child = spawn(process.execPath, [dshBin, '--version'], {
      env: { ...process.env, ...extra },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let text = '';
    child.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (text += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(text).toMatch(/^dsh \d+\.\d+\.\d+\n$/);
    expect(exitCode).toBe(0);
  });
});
