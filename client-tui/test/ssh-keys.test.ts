import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  accessPolicy,
  isLoopbackAddress,
  loadOrCreateHostKey,
  readAuthorizedKeys,
} from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'dsh-ssh-keys-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const edKey =
  'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl person@box';

describe('loadOrCreateHostKey()', () => {
  it('always creates a key it can read (ssh2 writes an unreadable one about 1 in 200 times)', () => {
    const failures = Array.from({ length: 400 }, (_, i) =>
      loadOrCreateHostKey(join(dir, 'many', `key-${i}`)),
    ).filter((result) => !result.ok);
    expect(failures).toEqual([]);
  });

  it('generates an ed25519 key (mode 0600, folder 0700) once and reads it back after', () => {
    const path = join(dir, 'host', 'nested', 'key');
    const first = loadOrCreateHostKey(path);
    expect(first.ok && first.value.created).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'host', 'nested')).mode & 0o777).toBe(0o700);
    expect(readFileSync(`${path}.pub`, 'utf8')).toMatch(/^ssh-ed25519 AAAA/);
    const second = loadOrCreateHostKey(path);
    expect(second.ok && second.value.created).toBe(false);
    expect(second.ok && first.ok && second.value.key.equals(first.value.key)).toBe(true);
    // OpenSSH agrees that the file is a private key.
    const check = spawnSync('ssh-keygen', ['-y', '-f', path], { encoding: 'utf8' });
    if (check.error === undefined)
      expect(check.stdout.trim()).toBe(readFileSync(`${path}.pub`, 'utf8').trim());
  });

  it('names the fix for a file that is not a private key', () => {
    const path = join(dir, 'garbage');
    writeFileSync(path, 'not a key');
    const result = loadOrCreateHostKey(path);
    expect(!result.ok && result.error).toMatch(
      /is not usable .*: remove it to have a new one generated/,
    );
  });
});

describe('readAuthorizedKeys()', () => {
  it.each([
    ['a missing file gives no keys', undefined, 0, []],
    ['comments and blank lines are skipped', `# mine\n\n${edKey}\n`, 1, []],
    ['options before the key are allowed', `no-pty,from="10.0.0.1" ${edKey}\n`, 1, []],
    [
      'a line without a key is reported',
      `${edKey}\ngarbage here\n`,
      1,
      ['line 2: no public key on the line'],
    ],
  ])('%s', (_name, text, keys, skipped) => {
    const path = join(dir, `ak-${Math.random()}`);
    if (text !== undefined) writeFileSync(path, text);
    const result = readAuthorizedKeys(path);
    expect(result.ok && result.value.keys.length).toBe(keys);
    expect(result.ok && result.value.skipped).toEqual(skipped);
  });

  it('names the fix for an unreadable path', () => {
    const result = readAuthorizedKeys(dir);
    expect(!result.ok && result.error).toContain('pass --authorized-keys FILE');
  });
});

describe('accessPolicy()', () => {
  const none = join(dir, 'no-such-file');
  const listed = join(dir, 'listed');
  writeFileSync(listed, `${edKey}\n`);
  it.each([
    ['loopback without keys lets anyone in', '127.0.0.1', none, undefined, 'anyone', false],
    ['loopback with keys checks them', '127.0.0.1', listed, undefined, 'checked', false],
    [
      'off loopback without keys takes a generated password',
      '0.0.0.0',
      none,
      undefined,
      'checked',
      true,
    ],
    [
      'off loopback with keys takes them or the password',
      '10.1.2.3',
      listed,
      undefined,
      'checked',
      true,
    ],
    ['a chosen password applies on loopback too', '::1', none, 'pw', 'checked', true],
  ])('%s', (_name, listen, keys, token, kind, password) => {
    const policy = accessPolicy(listen, keys, token);
    if ('error' in policy) throw new Error(policy.error);
    const access = policy.access();
    expect(access.kind).toBe(kind);
    expect(access.kind === 'checked' && access.token !== undefined).toBe(password);
    if (token === undefined && password)
      expect(policy.notes.join('\n')).toMatch(/password \S{24} \(generated/);
  });
});

describe('isLoopbackAddress()', () => {
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.1', true],
    ['::1', true],
    ['[::1]', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.2', false],
  ])('%s -> %s', (address, loopback) => expect(isLoopbackAddress(address)).toBe(loopback));
});
