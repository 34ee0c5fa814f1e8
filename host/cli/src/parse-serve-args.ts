import { parseArgs } from 'node:util';
import type { ConfigFlags } from './load-agent-config.js';
import { dataDirFrom, expandPath } from './expand-path.js';

/** The settings of `dsh serve`, after flags and environment. */
export interface ServeConfig {
  readonly port: number;
  readonly host: string;
  readonly token: string | undefined;
  readonly dataDir: string;
  readonly fixtureDirs: readonly string[];
  /** Model flags; the environment and the config file fill in the rest. */
  readonly model: ConfigFlags;
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
  --token T         require "Authorization: Bearer T"       (env DSH_TOKEN; generated and
                    printed when ADDR is not a loopback address)
  --data-dir DIR    where session journals live             (env DSH_DATA_DIR, default ~/.dsh/sessions)
  --fixtures DIR    also serve the journals in DIR, read-only (repeatable)
  --model NAME      model of new turns                      (env DSH_MODEL)
  --base-url URL    OpenAI-compatible endpoint              (env DSH_BASE_URL)
  --api-key KEY     key for that endpoint                   (env DSH_API_KEY; with no key and
                    no base URL the offline demo model answers)
  --config FILE     settings file                           (default ~/.dsh/config.json)
  --watch-claude [DIR]  import Claude Code transcripts from DIR (default ~/.claude/projects)
                    and keep following them live
  -h, --help        show this help
  -v, --version     show the version

       dsh import claude-code [DIR|FILE] [--data-dir DIR]   (see dsh import --help)
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
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        token: { type: 'string' },
        'data-dir': { type: 'string' },
        fixtures: { type: 'string', multiple: true },
        model: { type: 'string' },
        'base-url': { type: 'string' },
        'api-key': { type: 'string' },
        config: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const { values, positionals } = parsed;
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
  const token = values.token ?? fromEnv('DSH_TOKEN');
  return {
    kind: 'serve',
    config: {
      port,
      host,
      token: token === '' ? undefined : token,
      dataDir: dataDirFrom(values['data-dir'], env, cwd),
      fixtureDirs: (values.fixtures ?? []).map((dir) => expandPath(dir, cwd)),
      model: {
        ...(values.model !== undefined && { model: values.model }),
        ...(values['base-url'] !== undefined && { baseUrl: values['base-url'] }),
        ...(values['api-key'] !== undefined && { apiKey: values['api-key'] }),
        ...(values.config !== undefined && { config: expandPath(values.config, cwd) }),
      },
    },
  };
}
