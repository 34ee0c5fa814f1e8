import { createHash, randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import type { ParsedKey } from 'ssh2';
import { readAuthorizedKeys } from './ssh-keys.js';
import type { SshAccess } from './start-ssh-server.js';

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackAddress(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (name === 'localhost' || name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** The rule `dsh ssh` applies, and what to tell the person who starts it. */
export interface AccessPolicy {
  readonly access: () => SshAccess;
  /** Lines for the start-up log (which keys, the generated password). */
  readonly notes: readonly string[];
}

/**
 * Access of a server bound to `listen`: the keys of `authorizedKeysPath` (re-read on
 * every attempt, the last readable version kept), plus off loopback a password (`token`,
 * else a generated one, printed once). Loopback with no listed keys and no token lets any
 * local user in, as the web client's loopback default does.
 */
export function accessPolicy(
  listen: string,
  authorizedKeysPath: string,
  token: string | undefined,
): AccessPolicy | { readonly error: string } {
  const first = readAuthorizedKeys(authorizedKeysPath);
  if (!first.ok) return { error: first.error };
  const notes: string[] = [];
  for (const line of first.value.skipped)
    notes.push(`dsh ssh: ${authorizedKeysPath} ${line} (skipped)`);
  let keys: readonly ParsedKey[] = first.value.keys;
  const current = () => {
    const read = readAuthorizedKeys(authorizedKeysPath);
    if (read.ok) keys = read.value.keys;
    return keys;
  };
  const loopback = isLoopbackAddress(listen);
  const password = token ?? (loopback ? undefined : randomBytes(18).toString('base64url'));
  notes.push(`dsh ssh: ${keys.length} authorized key(s) in ${authorizedKeysPath}`);
  if (password !== undefined && token === undefined) {
    notes.push(
      `dsh ssh: password ${password} (generated for ${listen}; set DSH_SSH_TOKEN to choose one)`,
    );
  }
  if (loopback && password === undefined && keys.length === 0) {
    notes.push(
      `dsh ssh: no keys listed, so any local user may connect; add a public key to ${authorizedKeysPath} to require it`,
    );
  }
  const access = (): SshAccess => {
    const listed = current();
    if (loopback && password === undefined && listed.length === 0) return { kind: 'anyone' };
    return {
      kind: 'checked',
      keys: () => listed,
      ...(password !== undefined ? { token: password } : {}),
    };
  };
  return { access, notes };
}

/** The OpenSSH fingerprint of a public key (`SHA256:` and unpadded base64). */
export function fingerprint(key: ParsedKey): string {
  const digest = createHash('sha256').update(key.getPublicSSH()).digest('base64');
  return `SHA256:${digest.replace(/=+$/, '')}`;
}
