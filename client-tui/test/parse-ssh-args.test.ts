import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { parseSshArgs, sshUsage } from '../src/index.js';

describe('parseSshArgs()', () => {
  it.each([
    [
      'defaults',
      [],
      {},
      {
        listen: '127.0.0.1',
        port: 7422,
        hostKeyPath: `${homedir()}/.dsh/sessions/ssh_host_ed25519_key`,
        authorizedKeysPath: `${homedir()}/.ssh/authorized_keys`,
        sshToken: undefined,
      },
    ],
    [
      'flags, relative to the working directory',
      ['--listen', '0.0.0.0', '--port', '0', '--data-dir', 'data', '--authorized-keys', 'keys'],
      { DSH_SSH_TOKEN: 'pw' },
      {
        listen: '0.0.0.0',
        port: 0,
        hostKeyPath: '/work/data/ssh_host_ed25519_key',
        authorizedKeysPath: '/work/keys',
        sshToken: 'pw',
      },
    ],
    [
      'environment, and --host-key over the data dir',
      ['--host-key', '~/k'],
      { DSH_SSH_LISTEN: '::1', DSH_SSH_PORT: '2222', DSH_DATA_DIR: '/d' },
      {
        listen: '::1',
        port: 2222,
        hostKeyPath: `${homedir()}/k`,
        authorizedKeysPath: `${homedir()}/.ssh/authorized_keys`,
        sshToken: undefined,
      },
    ],
  ])('%s', (_name, argv, env, expected) => {
    const request = parseSshArgs(argv, env, '/work');
    expect(request.kind).toBe('ssh');
    if (request.kind !== 'ssh') return;
    const { tui, ...rest } = request.config;
    expect(rest).toEqual(expected);
    expect(tui.url).toBe('http://127.0.0.1:7420');
  });

  it('passes the client flags to the served clients', () => {
    const request = parseSshArgs(['--host', 'box:9000', '--token', 't', '--bell'], {}, '/');
    expect(request.kind === 'ssh' && request.config.tui).toMatchObject({
      url: 'http://box:9000',
      token: 't',
      bell: true,
    });
  });

  it.each([
    [['--port', 'x'], 'bad port "x": use 0 to 65535'],
    [['--port', '70000'], 'bad port "70000": use 0 to 65535'],
    [['--host', 'ftp://x'], 'use an http:// or https:// URL'],
    [['--nope'], "Unknown option '--nope'"],
  ])('%j is an error naming the fix', (argv, message) => {
    const request = parseSshArgs(argv, {}, '/');
    expect(request.kind === 'error' && request.message).toContain(message);
  });

  it('answers --help with the usage', () => {
    expect(parseSshArgs(['-h'], {}, '/')).toEqual({ kind: 'help' });
    expect(sshUsage).toContain('--authorized-keys FILE');
  });
});
