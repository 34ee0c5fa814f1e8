import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import ssh2 from 'ssh2';
import type { ParsedKey } from 'ssh2';

const { utils } = ssh2;

/** The outcome of reading a key file: the value, or an error that names the fix. */
export type KeyResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: string };

/**
 * The server's host key at `path` (OpenSSH private key format); an ed25519 key is
 * generated and kept there (mode 0600, folder 0700) when the file does not exist, so the
 * fingerprint clients pin stays the same across restarts.
 */
export function loadOrCreateHostKey(path: string): KeyResult<{ key: Buffer; created: boolean }> {
  let text: Buffer;
  let created = false;
  try {
    text = readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') {
      return {
        ok: false,
        error: `cannot read the host key ${path} (${describe(error)}): make it readable or pass another --host-key`,
      };
    }
    try {
      mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
      const pair = parsableKeyPair();
      writeFileSync(path, pair.private, { mode: 0o600, flag: 'wx' });
      writeFileSync(`${path}.pub`, `${pair.public}\n`, { mode: 0o644 });
      created = true;
      text = Buffer.from(pair.private);
    } catch (failure) {
      return {
        ok: false,
        error: `cannot create the host key ${path} (${describe(failure)}): pass a writable --host-key`,
      };
    }
  }
  const parsed = utils.parseKey(text);
  if (parsed instanceof Error || Array.isArray(parsed) || !parsed.isPrivateKey()) {
    const why = parsed instanceof Error ? parsed.message : 'not one private key';
    return {
      ok: false,
      error: `the host key ${path} is not usable (${why}): remove it to have a new one generated`,
    };
  }
  return { ok: true, value: { key: text, created } };
}

/**
 * A new ed25519 pair whose private key ssh2 reads back: about 1 in 200 of the keys its
 * `generateKeyPairSync` writes fail its own parser ("Malformed OpenSSH private key").
 */
function parsableKeyPair(): { private: string; public: string } {
  for (let attempt = 1; ; attempt++) {
    const pair = utils.generateKeyPairSync('ed25519');
    const parsed = utils.parseKey(pair.private);
    if (!(parsed instanceof Error) || attempt >= 20) return pair;
  }
}

/** Public keys of an authorized_keys file, and the lines that could not be read. */
export interface AuthorizedKeys {
  readonly keys: readonly ParsedKey[];
  /** `line N: why` for each line that is not a key. */
  readonly skipped: readonly string[];
}

// A key starts at its type: `ssh-ed25519`, `ssh-rsa`, `ecdsa-sha2-nistp256`, `sk-...`.
const keyStart = /(?:^|\s)((?:ssh|ecdsa|sk)-[\w@.-]+\s+[A-Za-z0-9+/=]+)/;

/**
 * Reads an OpenSSH `authorized_keys` file: one public key per line, after optional
 * options (`from=...`, `no-pty`...; not enforced: every listed key may open the client),
 * `#` comments and blank lines ignored. A missing file gives no keys; unreadable lines are
 * reported in `skipped`.
 */
export function readAuthorizedKeys(path: string): KeyResult<AuthorizedKeys> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { ok: true, value: { keys: [], skipped: [] } };
    return {
      ok: false,
      error: `cannot read ${path} (${describe(error)}): make it readable or pass --authorized-keys FILE`,
    };
  }
  const keys: ParsedKey[] = [];
  const skipped: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    const found = keyStart.exec(line)?.[1];
    const parsed =
      found === undefined ? new Error('no public key on the line') : utils.parseKey(found);
    if (parsed instanceof Error) skipped.push(`line ${i + 1}: ${parsed.message}`);
    else if (Array.isArray(parsed)) keys.push(...parsed);
    else keys.push(parsed);
  });
  return { ok: true, value: { keys, skipped } };
}

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
