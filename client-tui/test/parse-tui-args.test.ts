import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseTuiArgs, tuiUsage } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'dsh-tui-token-'));
const tokenFile = join(dir, 'token');
writeFileSync(tokenFile, 'from-file\n');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('parseTuiArgs()', () => {
  it.each([
    [
      'defaults',
      [],
      {},
      {
        url: 'http://127.0.0.1:7420',
        token: undefined,
        mouse: false,
        sessionId: undefined,
        bell: false,
      },
    ],
    [
      '--host and --token',
      ['--host', 'http://box:9000/', '--token', 't1'],
      {},
      { url: 'http://box:9000', token: 't1', mouse: false, sessionId: undefined, bell: false },
    ],
    [
      'env',
      [],
      { DSH_URL: 'https://h.example', DSH_TOKEN: 'e' },
      { url: 'https://h.example', token: 'e', mouse: false, sessionId: undefined, bell: false },
    ],
    [
      'flags win over env',
      ['--host', '127.0.0.1:1'],
      { DSH_URL: 'http://other:2' },
      {
        url: 'http://127.0.0.1:1',
        token: undefined,
        mouse: false,
        sessionId: undefined,
        bell: false,
      },
    ],
    [
      'empty env is unset',
      [],
      { DSH_URL: '', DSH_TOKEN: '' },
      {
        url: 'http://127.0.0.1:7420',
        token: undefined,
        mouse: false,
        sessionId: undefined,
        bell: false,
      },
    ],
    [
      '--token-file',
      ['--token-file', tokenFile],
      { DSH_TOKEN: 'e' },
      {
        url: 'http://127.0.0.1:7420',
        token: 'from-file',
        mouse: false,
        sessionId: undefined,
        bell: false,
      },
    ],
    [
      'DSH_TOKEN_FILE',
      [],
      { DSH_TOKEN_FILE: tokenFile },
      {
        url: 'http://127.0.0.1:7420',
        token: 'from-file',
        mouse: false,
        sessionId: undefined,
        bell: false,
      },
    ],
    [
      '--mouse --session',
      ['--mouse', '--session', 's-1'],
      {},
      {
        url: 'http://127.0.0.1:7420',
        token: undefined,
        mouse: true,
        sessionId: 's-1',
        bell: false,
      },
    ],
    [
      '--bell',
      ['--bell'],
      {},
      {
        url: 'http://127.0.0.1:7420',
        token: undefined,
        mouse: false,
        sessionId: undefined,
        bell: true,
      },
    ],
    [
      'DSH_TUI_BELL=1',
      [],
      { DSH_TUI_BELL: '1' },
      {
        url: 'http://127.0.0.1:7420',
        token: undefined,
        mouse: false,
        sessionId: undefined,
        bell: true,
      },
    ],
  ])('%s', (_name, argv, env, config) => {
    expect(parseTuiArgs(argv, env)).toEqual({ kind: 'tui', config });
  });

  it.each([
    ['unknown flag', ['--nope'], /Unknown option/],
    ['bad scheme', ['--host', 'ftp://x'], /http:\/\/ or https:\/\//],
    ['bad URL', ['--host', 'http://'], /bad host/],
    ['positional', ['extra'], /argument/],
    ['both token flags', ['--token', 'a', '--token-file', tokenFile], /not both/],
    ['a missing token file', ['--token-file', join(dir, 'nope')], /cannot read the token file/],
  ])('%s is an error naming the fix', (_name, argv, message) => {
    const result = parseTuiArgs(argv, {});
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' ? result.message : '').toMatch(message);
  });

  it('--help', () => {
    expect(parseTuiArgs(['-h'], {})).toEqual({ kind: 'help' });
    expect(tuiUsage).toMatch(/other users of this machine\s+can read it in `ps`/);
  });
});
