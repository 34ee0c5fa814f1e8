import { readFileSync } from 'node:fs';
import { parseArgv } from './parse-argv.js';

/** The settings of `dsh tui`, after flags and environment. */
export interface TuiConfig {
  readonly url: string;
  readonly token: string | undefined;
  readonly mouse: boolean;
  readonly sessionId: string | undefined;
  /** Ring the terminal bell when the open session starts waiting for the person. */
  readonly bell: boolean;
}

/** What `dsh tui` was asked to do. */
export type TuiRequest =
  | { readonly kind: 'tui'; readonly config: TuiConfig }
  | { readonly kind: 'help' }
  | { readonly kind: 'error'; readonly message: string };

/** The host `dsh tui` connects to when neither --host nor DSH_URL is given. */
export const defaultHostUrl = 'http://127.0.0.1:7420';

/** The usage text of `dsh tui`. */
export const tuiUsage = `usage: dsh tui [options]

Full-screen terminal client of a dsh host (keyboard first; F1 lists the keys).

options:
  --host URL        host to connect to          (env DSH_URL, default ${defaultHostUrl})
  --token-file FILE bearer token of the host, read from FILE's first line
                    (env DSH_TOKEN_FILE; or the token itself in env DSH_TOKEN)
  --token T         the same, T on the command line: other users of this machine
                    can read it in \`ps\`; prefer --token-file or DSH_TOKEN
  --session ID      open this session first     (default: the newest)
  --mouse           turn mouse reporting on (off by default so text selection works)
  --bell            ring the terminal bell when an approval or question starts
                    waiting in the open session   (env DSH_TUI_BELL=1; off by default)
  -h, --help        show this help

colours: 256 when TERM or COLORTERM says so, else 16; DSH_COLORS=16|256 overrides.
`;

/**
 * Parses `dsh tui` arguments (without the `tui` word) and environment. Flags win over
 * environment variables; bad input gives an `error` naming the fix, never a throw.
 */
export function parseTuiArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): TuiRequest {
  const parsed = parseArgv({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      token: { type: 'string' },
      'token-file': { type: 'string' },
      session: { type: 'string' },
      mouse: { type: 'boolean' },
      bell: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { values } = parsed.value;
  if (values.help === true) return { kind: 'help' };
  const fromEnv = (name: string) => (env[name] === '' ? undefined : env[name]);
  const raw = values.host ?? fromEnv('DSH_URL') ?? defaultHostUrl;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    return {
      kind: 'error',
      message: `bad host ${JSON.stringify(raw)}: use a URL such as ${defaultHostUrl}`,
    };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return {
      kind: 'error',
      message: `bad host ${JSON.stringify(raw)}: use an http:// or https:// URL`,
    };
  }
  const token = resolveToken(values.token, values['token-file'], fromEnv);
  if (typeof token === 'object') return token;
  return {
    kind: 'tui',
    config: {
      url: url.href.replace(/\/$/, ''),
      token,
      mouse: values.mouse === true,
      sessionId: values.session === '' ? undefined : values.session,
      bell: values.bell === true || fromEnv('DSH_TUI_BELL') === '1',
    },
  };
}

/**
 * The token from `--token`, else the file of `--token-file`, else `DSH_TOKEN`, else the
 * file of `DSH_TOKEN_FILE` (its first line, trimmed), as `dsh serve` reads it.
 */
function resolveToken(
  flag: string | undefined,
  fileFlag: string | undefined,
  fromEnv: (name: string) => string | undefined,
): string | undefined | { kind: 'error'; message: string } {
  if (flag !== undefined && fileFlag !== undefined) {
    return { kind: 'error', message: 'give --token or --token-file, not both' };
  }
  if (flag !== undefined) return flag === '' ? undefined : flag;
  const envToken = fromEnv('DSH_TOKEN');
  const file = fileFlag ?? (envToken === undefined ? fromEnv('DSH_TOKEN_FILE') : undefined);
  if (file === undefined) return envToken;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    return {
      kind: 'error',
      message: `cannot read the token file ${file} (${reason}): give a readable file`,
    };
  }
  const token = text.split(/\r?\n/, 1)[0]!.trim();
  if (token === '') {
    return {
      kind: 'error',
      message: `the token file ${file} is empty: put the token on its first line`,
    };
  }
  return token;
}
