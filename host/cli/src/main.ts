import { hostVersion } from '@dsh/server';
import type { FileJournalStore } from '@dsh/journal-file';
import {
  attachClaudeWatch,
  attachCodexWatch,
  extractWatchClaude,
  extractWatchCodex,
  runImportCommand,
} from './claude-code-command.js';
import { runMigrateCommand } from './migrate-command.js';
import { parseServeArgs, usage } from './parse-serve-args.js';
import { serve } from './serve.js';

/** Runs the `dsh` command line and resolves with the process exit code. */
export async function main(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  if (argv[0] === 'import') return runImportCommand(argv.slice(1), env);
  if (argv[0] === 'tui') return runTuiCommand(argv.slice(1), env);
  if (argv[0] === 'ssh') return runSshCommand(argv.slice(1), env);
  if (argv[0] === 'migrate') return runMigrateCommand(argv.slice(1));
  const claude = extractWatchClaude(argv);
  const { argv: serveArgv, watchCodex } = extractWatchCodex(claude.argv);
  const watchClaude = claude.watchClaude;
  const request = parseServeArgs(serveArgv, env);
  switch (request.kind) {
    case 'help':
      process.stdout.write(usage);
      return 0;
    case 'version':
      process.stdout.write(`dsh ${hostVersion}\n`);
      return 0;
    case 'error':
      process.stderr.write(`dsh: ${request.message}\n\n${usage}`);
      return 2;
    case 'serve':
      try {
        const out = (line: string): void => void process.stdout.write(line + '\n');
        const watches = [
          ...(watchClaude === undefined ? [] : [attachClaudeWatch(watchClaude, out)]),
          ...(watchCodex === undefined ? [] : [attachCodexWatch(watchCodex, out)]),
        ];
        const attach =
          watches.length === 0
            ? undefined
            : async (store: FileJournalStore) => {
                const stops: (() => Promise<void>)[] = [];
                for (const watch of watches) stops.push(await watch(store));
                return async () => {
                  for (const stop of stops) await stop();
                };
              };
        return await serve(request.config, out, attach);
      } catch (error) {
        process.stderr.write(`dsh: ${(error as Error).message}\n`);
        return 1;
      }
    default: {
      const unknown: never = request;
      throw new Error(`unhandled request ${JSON.stringify(unknown)}`);
    }
  }
}

/** `dsh tui`: the terminal client, loaded only when asked for (serving never needs it). */
async function runTuiCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const { runTui } = await import('@dsh/client-tui');
  return runTui(argv, env);
}

/** `dsh ssh`: the terminal client served over SSH, loaded only when asked for. */
async function runSshCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const { runSsh } = await import('@dsh/client-tui');
  return runSsh(argv, env, process.cwd());
}
