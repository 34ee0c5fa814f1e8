import { readFileSync } from 'node:fs';
import { parseArgv } from '@dsh/client-tui/argv';
import type { ServerLimits } from '@dsh/server';
import type { ConfigFlags } from './load-agent-config.js';
import { dataDirFrom, expandPath } from './expand-path.js';

/** The settings of `dsh serve`, after flags and environment. */
export interface ServeConfig {
  readonly port: number;
  readonly host: string;
  readonly token: string | undefined;
  readonly dataDir: string;
  /** Where sessions are kept: journal files in the data dir (the default), or PostgreSQL. */
  readonly store: StoreChoice;
  readonly fixtureDirs: readonly string[];
  /** Model flags; the environment and the config file fill in the rest. */
  readonly model: ConfigFlags;
  /** Timeouts and connection caps given as flags; the server's defaults fill in the rest. */
  readonly limits: Partial<ServerLimits>;
}

/** The journal store `dsh serve` opens. */
export type StoreChoice =
  { readonly kind: 'file' } | { readonly kind: 'postgres'; readonly url: string };

/**
 * The store a `--store` / `DSH_STORE` value names: `file` (or nothing) for journal files
 * in the data dir, a `postgres://` or `postgresql://` URL for a database; undefined for
 * anything else.
 */
export function parseStore(value: string | undefined): StoreChoice | undefined {
  if (value === undefined || value.trim() === '' || value.trim() === 'file')
    return { kind: 'file' };
  const url = value.trim();
  return /^postgres(ql)?:\/\//.test(url) ? { kind: 'postgres', url } : undefined;
}

/** What the command line asks for. */
export type CliRequest =
  | { kind: 'serve'; config: ServeConfig }
  | { kind: 'help' }
  | { kind: 'version' }
  | { kind: 'error'; message: string };

/** The port `dsh serve` binds when neither --port nor DSH_PORT is given. */
export const defaultPort = 7420;

/** The usage text of the `dsh` command. */
export const usage = `usage: dsh [serve] [options]

Runs the dsh host: agent sessions over Connect-RPC, and the web client.

options:
  --port N          port to listen on; 0 picks a free one   (env DSH_PORT, default ${defaultPort})
  --host ADDR       address to bind                         (env DSH_HOST, default 127.0.0.1)
  --token-file FILE require "Authorization: Bearer T" with T read from FILE
                    (env DSH_TOKEN_FILE; or the token itself in env DSH_TOKEN;
                    generated and printed when ADDR is not a loopback address)
  --token T         the same, T on the command line: other users of this machine
                    can read it in \`ps\`; prefer --token-file or DSH_TOKEN
  --data-dir DIR    where session journals live             (env DSH_DATA_DIR, default ~/.dsh/sessions)
  --store STORE     where sessions are kept: file (journal files in the data dir) or a
                    PostgreSQL URL postgres://USER:PASSWORD@HOST:PORT/DB, shared by
                    every host on it (env DSH_STORE, default file; host/journal-pg/README.md)
  --fixtures DIR    also serve the journals in DIR, read-only (repeatable)
  --model NAME      model of new turns                      (env DSH_MODEL)
  --base-url URL    OpenAI-compatible endpoint              (env DSH_BASE_URL)
  --api-key KEY     key for that endpoint                   (env DSH_API_KEY; with no key and
                    no base URL the offline demo model answers)
  --config FILE     settings file                           (default ~/.dsh/config.json)
  --context-budget N  most tokens one model request may carry; the history is compacted
                    to keep it (default: per model, see host/agent/README.md)
  --watch-claude [DIR]  import Claude Code transcripts from DIR (default ~/.claude/projects)
                    and keep following them live
  --watch-codex [DIR]   the same for Codex rollouts         (default ~/.codex/sessions)

limits (see host/README.server.md):
  --headers-timeout MS    a new connection must send its request headers (or open
                          its first h2c stream) within MS            (default 10000)
  --request-timeout MS    a request's headers and body must arrive within MS
                          (never limits a response such as Follow)   (default 30000)
  --idle-timeout MS       close a keep-alive connection or h2c session idle for MS
                                                                     (default 30000)
  --stall-timeout MS      close a stream whose client read nothing for MS; a follower
                          reconnects and resumes                     (default 30000)
  --max-connections N     open connections in all                    (default 1024)
  --max-connections-per-client N   from one client address           (default 256)
  --max-streams-per-client N       requests and streams in flight from one client
                                   address (behind a proxy: all clients) (default 128)

  -h, --help        show this help
  -v, --version     show the version

       dsh import claude-code [DIR|FILE] [--data-dir DIR]   (see dsh import --help)
       dsh migrate --from DIR|URL --to URL|DIR   copy sessions between the file and
                                 PostgreSQL stores      (see dsh migrate --help)
       dsh tui [--host URL]      the terminal client          (see dsh tui --help)
       dsh ssh [--port N]        the terminal client over SSH (see dsh ssh --help)
`;

/**
 * Parses `dsh` arguments and environment into a request. Flags win over environment
 * variables; bad input gives an `error` with a message naming the fix, never a throw.
 */
export function parseServeArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): CliRequest {
  const parsed = parseArgv({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      'data-dir': { type: 'string' },
      store: { type: 'string' },
      fixtures: { type: 'string', multiple: true },
      model: { type: 'string' },
      'base-url': { type: 'string' },
      'api-key': { type: 'string' },
      config: { type: 'string' },
      'context-budget': { type: 'string' },
      ...limitOptions,
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { values, positionals } = parsed.value;
  if (values.help === true) return { kind: 'help' };
  if (values.version === true) return { kind: 'version' };
  const [command = 'serve', ...extra] = positionals;
  if (command !== 'serve') {
    return {
      kind: 'error',
      message: `unknown command ${JSON.stringify(command)}: use "dsh serve"`,
    };
  }
  if (extra.length > 0) {
    return { kind: 'error', message: `unexpected argument ${JSON.stringify(extra[0])}` };
  }
  // An empty environment variable counts as unset.
  const fromEnv = (name: string): string | undefined => (env[name] === '' ? undefined : env[name]);
  const portText = values.port ?? fromEnv('DSH_PORT') ?? String(defaultPort);
  const port = Number(portText);
  if (!/^\d+$/.test(portText.trim()) || port > 65_535) {
    return {
      kind: 'error',
      message: `bad port ${JSON.stringify(portText)}: use a number from 0 to 65535`,
    };
  }
  const host = values.host ?? fromEnv('DSH_HOST') ?? '127.0.0.1';
  if (host.trim() === '')
    return { kind: 'error', message: 'empty --host: give an address such as 127.0.0.1' };
  const token = resolveToken(values.token, values['token-file'], fromEnv, cwd);
  if (typeof token === 'object') return token;
  const limits: Partial<Record<keyof ServerLimits, number>> = {};
  for (const [flag, key] of limitFlags) {
    const text = values[flag];
    if (text === undefined) continue;
    if (!/^\d+$/.test(text.trim()) || Number(text) < 1) {
      return {
        kind: 'error',
        message: `bad --${flag} ${JSON.stringify(text)}: use a whole number of at least 1`,
      };
    }
    limits[key] = Number(text);
  }
  const budgetText = values['context-budget'];
  if (budgetText !== undefined && (!/^\d+$/.test(budgetText.trim()) || Number(budgetText) < 1)) {
    return {
      kind: 'error',
      message: `bad --context-budget ${JSON.stringify(budgetText)}: use a whole number of tokens of at least 1`,
    };
  }
  const storeText = values.store ?? fromEnv('DSH_STORE');
  const store = parseStore(storeText);
  if (store === undefined) {
    return {
      kind: 'error',
      message:
        `bad --store ${JSON.stringify(storeText)}: use file, or a PostgreSQL URL such as ` +
        'postgres://dsh:PASSWORD@127.0.0.1:5432/dsh',
    };
  }
  return {
    kind: 'serve',
    config: {
      port,
      host,
      token,
      dataDir: dataDirFrom(values['data-dir'], env, cwd),
      store,
      fixtureDirs: (values.fixtures ?? []).map((dir) => expandPath(dir, cwd)),
      model: {
        ...(values.model !== undefined && { model: values.model }),
        ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
        ...(values['api-key'] !== undefined && { apiKey: values['api-key'] }),
        ...(values.config !== undefined && { config: expandPath(values.config, cwd) }),
        ...(budgetText !== undefined && { contextBudget: Number(budgetText) }),
      },
      limits,
    },
  };
}

/** The limit flags and the `ServerLimits` field each sets. */
const limitFlags = [
  ['headers-timeout', 'headersTimeoutMs'],
  ['request-timeout', 'requestTimeoutMs'],
  ['idle-timeout', 'idleTimeoutMs'],
  ['stall-timeout', 'stallTimeoutMs'],
  ['max-connections', 'maxConnections'],
  ['max-connections-per-client', 'maxConnectionsPerClient'],
  ['max-streams-per-client', 'maxStreamsPerClient'],
] as const satisfies readonly (readonly [string, keyof ServerLimits])[];

const limitOptions = Object.fromEntries(
  limitFlags.map(([flag]) => [flag, { type: 'string' as const }]),
) as Record<(typeof limitFlags)[number][0], { type: 'string' }>;

/**
 * The token from `--token`, else the file of `--token-file`, else `DSH_TOKEN`, else the
 * file of `DSH_TOKEN_FILE` (its first line, trimmed); undefined for none, or an error.
 */
function resolveToken(
  flag: string | undefined,
  fileFlag: string | undefined,
  fromEnv: (name: string) => string | undefined,
  cwd: string,
): string | undefined | { kind: 'error'; message: string } {
  if (flag !== undefined && fileFlag !== undefined) {
    return { kind: 'error', message: 'give --token or --token-file, not both' };
  }
  if (flag !== undefined) return flag === '' ? undefined : flag;
  const file =
    fileFlag ?? (fromEnv('DSH_TOKEN') === undefined ? fromEnv('DSH_TOKEN_FILE') : undefined);
  if (file === undefined) return fromEnv('DSH_TOKEN');
  const path = expandPath(file, cwd);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      kind: 'error',
      message: `cannot read the token file ${path} (${reason}): give a readable file`,
    };
  }
  const token = text.split(/\r?\n/, 1)[0]!.trim();
  if (token === '') {
    return {
      kind: 'error',
      message: `the token file ${path} is empty: put the token on its first line`,
    };
  }
  return token;
}
