import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { parseArgv } from './parse-argv.js';
import { parseTuiArgs, defaultHostUrl, type TuiConfig } from './parse-tui-args.js';

/** The settings of `dsh ssh`, after flags and environment. */
export interface SshConfig {
  /** The host the served clients connect to, and how. */
  readonly tui: TuiConfig;
  /** Address the SSH server binds (loopback by default). */
  readonly listen: string;
  readonly port: number;
  readonly hostKeyPath: string;
  readonly authorizedKeysPath: string;
  /** The password off loopback when no key is listed (`DSH_SSH_TOKEN`); generated when unset. */
  readonly sshToken: string | undefined;
}

/** What `dsh ssh` was asked to do. */
export type SshRequest =
  | { readonly kind: 'ssh'; readonly config: SshConfig }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** The port `dsh ssh` listens on by default. */
export const defaultSshPort = 7422;

/** The usage text of `dsh ssh`. */
export const sshUsage = `usage: dsh ssh [options]

Serves the terminal client (dsh tui) to SSH clients: each \`ssh -t -p PORT HOST\`
gets its own client, sized to its terminal, connected to the dsh host.

options:
  --listen ADDR            address to bind         (env DSH_SSH_LISTEN, default 127.0.0.1)
  --port N                 port, 0 picks a free one (env DSH_SSH_PORT, default ${defaultSshPort})
  --authorized-keys FILE   public keys that may connect, OpenSSH format, read on every
                           connection              (default ~/.ssh/authorized_keys)
  --host-key FILE          the server's private key, generated on first start
                           (default DATA_DIR/ssh_host_ed25519_key)
  --data-dir DIR           the host's data dir      (env DSH_DATA_DIR, default ~/.dsh/sessions)
  --host URL               dsh host the clients use (env DSH_URL, default ${defaultHostUrl})
  --token-file FILE, --token T
                           bearer token of that host (env DSH_TOKEN_FILE, DSH_TOKEN)
  --bell, --mouse          as for dsh tui
  -h, --help               show this help

access: when the authorized keys file lists keys, only their holders get in. Without
keys, loopback lets any local user in (as the web client does), and any other address
takes a password: DSH_SSH_TOKEN, or one generated and printed at start.
`;

/** A path from the command line: `~/` is the home dir, else relative to `cwd`. */
function expand(path: string, cwd: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/**
 * Parses `dsh ssh` arguments (without the `ssh` word) and environment; the client's own
 * flags (`--host`, `--token`...) are `dsh tui`'s. Bad input gives an `error` naming the
 * fix, never a throw.
 */
export function parseSshArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): SshRequest {
  const parsed = parseArgv({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      listen: { type: 'string' },
      port: { type: 'string' },
      'authorized-keys': { type: 'string' },
      'host-key': { type: 'string' },
      'data-dir': { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      bell: { type: 'boolean' },
      mouse: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { values } = parsed.value;
  if (values.help === true) return { kind: 'help' };
  const fromEnv = (name: string) => (env[name] === '' ? undefined : env[name]);
  const tuiArgv = [
    ...(values.host !== undefined ? ['--host', values.host] : []),
    ...(values.token !== undefined ? ['--token', values.token] : []),
    ...(values['token-file'] !== undefined ? ['--token-file', values['token-file']] : []),
    ...(values.bell === true ? ['--bell'] : []),
    ...(values.mouse === true ? ['--mouse'] : []),
  ];
  const tui = parseTuiArgs(tuiArgv, env);
  if (tui.kind === 'error') return tui;
  if (tui.kind === 'help') return { kind: 'help' };
  const rawPort = values.port ?? fromEnv('DSH_SSH_PORT') ?? String(defaultSshPort);
  const port = Number(rawPort);
  if (!/^\d+$/.test(rawPort) || port > 65535) {
    return { kind: 'error', message: `bad port ${JSON.stringify(rawPort)}: use 0 to 65535` };
  }
  const dataDir = expand(values['data-dir'] ?? fromEnv('DSH_DATA_DIR') ?? '~/.dsh/sessions', cwd);
  return {
    kind: 'ssh',
    config: {
      tui: tui.config,
      listen: values.listen ?? fromEnv('DSH_SSH_LISTEN') ?? '127.0.0.1',
      port,
      hostKeyPath: expand(values['host-key'] ?? resolve(dataDir, 'ssh_host_ed25519_key'), cwd),
      authorizedKeysPath: expand(values['authorized-keys'] ?? '~/.ssh/authorized_keys', cwd),
      sshToken: fromEnv('DSH_SSH_TOKEN'),
    },
  };
}
