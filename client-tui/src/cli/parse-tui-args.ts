import { parseArgs } from 'node:util';

/** The settings of `dsh tui`, after flags and environment. */
export interface TuiConfig {
  readonly url: string;
  readonly token: string | undefined;
  readonly mouse: boolean;
  readonly sessionId: string | undefined;
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
  --token T         bearer token of the host    (env DSH_TOKEN)
  --session ID      open this session first     (default: the newest)
  --mouse           turn mouse reporting on (off by default so text selection works)
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
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      options: {
        host: { type: 'string' },
        token: { type: 'string' },
        session: { type: 'string' },
        mouse: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    return { kind: 'error', message: (error as Error).message };
  }
  const { values } = parsed;
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
  const token = values.token ?? fromEnv('DSH_TOKEN');
  return {
    kind: 'tui',
    config: {
      url: url.href.replace(/\/$/, ''),
      token: token === '' ? undefined : token,
      mouse: values.mouse === true,
      sessionId: values.session === '' ? undefined : values.session,
    },
  };
}
