import { describe, expect, it } from 'vitest';
import { parseTuiArgs } from '../src/index.js';

describe('parseTuiArgs()', () => {
  it.each([
    [
      'defaults',
      [],
      {},
      { url: 'http://127.0.0.1:7420', token: undefined, mouse: false, sessionId: undefined },
    ],
    [
      '--host and --token',
      ['--host', 'http://box:9000/', '--token', 't1'],
      {},
      { url: 'http://box:9000', token: 't1', mouse: false, sessionId: undefined },
    ],
    [
      'env',
      [],
      { DSH_URL: 'https://h.example', DSH_TOKEN: 'e' },
      { url: 'https://h.example', token: 'e', mouse: false, sessionId: undefined },
    ],
    [
      'flags win over env',
      ['--host', '127.0.0.1:1'],
      { DSH_URL: 'http://other:2' },
      { url: 'http://127.0.0.1:1', token: undefined, mouse: false, sessionId: undefined },
    ],
    [
      'empty env is unset',
      [],
      { DSH_URL: '', DSH_TOKEN: '' },
      { url: 'http://127.0.0.1:7420', token: undefined, mouse: false, sessionId: undefined },
    ],
    [
      '--mouse --session',
      ['--mouse', '--session', 's-1'],
      {},
      { url: 'http://127.0.0.1:7420', token: undefined, mouse: true, sessionId: 's-1' },
    ],
  ])('%s', (_name, argv, env, config) => {
    expect(parseTuiArgs(argv, env)).toEqual({ kind: 'tui', config });
  });

  it.each([
    ['unknown flag', ['--nope'], /Unknown option/],
    ['bad scheme', ['--host', 'ftp://x'], /http:\/\/ or https:\/\//],
    ['bad URL', ['--host', 'http://'], /bad host/],
    ['positional', ['extra'], /argument/],
  ])('%s is an error naming the fix', (_name, argv, message) => {
    const result = parseTuiArgs(argv, {});
    expect(result.kind).toBe('error');
    expect(result.kind === 'error' ? result.message : '').toMatch(message);
  });

  it('--help', () => {
    expect(parseTuiArgs(['-h'], {})).toEqual({ kind: 'help' });
  });
});
