import { detectColorDepth } from '../text/color-depth.js';
import { createSessionClient } from '../data/session-client.js';
import { createTuiApp } from '../ui/create-tui-app.js';
import { parseTuiArgs, tuiUsage } from './parse-tui-args.js';

/**
 * Runs `dsh tui` on the process's terminal until the person quits; resolves with the exit
 * code. Needs a TTY on stdin and stdout (it says so otherwise).
 */
export async function runTui(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const request = parseTuiArgs(argv, env);
  switch (request.kind) {
    case 'help':
      process.stdout.write(tuiUsage);
      return 0;
    case 'error':
      process.stderr.write(`dsh tui: ${request.message}\n\n${tuiUsage}`);
      return 2;
    case 'tui':
      break;
    default: {
      const unknown: never = request;
      throw new Error(`unhandled request ${JSON.stringify(unknown)}`);
    }
  }
  if (!process.stdin.isTTY || !process.stdout.isTTY) {
    process.stderr.write(
      'dsh tui: needs a terminal (stdin and stdout must be a TTY); use ssh -t over SSH\n',
    );
    return 2;
  }
  const { config } = request;
  const app = createTuiApp({
    client: createSessionClient(config.url, config.token),
    hostLabel: config.url.replace(/^https?:\/\//, ''),
    input: process.stdin,
    output: process.stdout,
    colorDepth: detectColorDepth(env),
    mouse: config.mouse,
    bell: config.bell,
    ...(config.sessionId !== undefined ? { sessionId: config.sessionId } : {}),
  });
  await app.done;
  return 0;
}
