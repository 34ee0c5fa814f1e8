import { parseArgv } from '@dsh/client-tui/argv';
import {
  acquireDataDirLock,
  createJournalStore,
  dataDirHeldMessage,
  type FileJournalStore,
} from '@dsh/journal-file';
import {
  importClaudeCode,
  importCodex,
  importDetected,
  watchClaudeCode,
  watchCodex,
} from '@dsh/import';
import { dataDirFrom, expandPath } from './expand-path.js';

/** Where Claude Code keeps its transcripts. */
export const defaultClaudeProjectsDir = '~/.claude/projects';

/** Where Codex CLI keeps its rollouts. */
export const defaultCodexSessionsDir = '~/.codex/sessions';

/** The usage text of `dsh import`. */
export const importUsage = `usage: dsh import claude-code [DIR|FILE] [--data-dir DIR]
       dsh import codex [DIR|FILE] [--data-dir DIR]
       dsh import DIR|FILE [--data-dir DIR]

Imports Claude Code transcripts (default ${defaultClaudeProjectsDir}) or Codex rollouts
(default ${defaultCodexSessionsDir}) as dsh sessions; given only a path, imports each
format found there. Re-running continues grown transcripts and never duplicates events.

options:
  --data-dir DIR    where session journals live   (env DSH_DATA_DIR, default ~/.dsh/sessions)
`;

/** Which importer `dsh import` runs: one format, or each format found at the path. */
export type ImportFormat = 'claude-code' | 'codex' | 'detect';

/** The settings of `dsh import`. */
export type ImportRequest =
  | { kind: 'import'; format: ImportFormat; source: string; dataDir: string }
  | { kind: 'help' }
  | { kind: 'error'; message: string };

/** Parses the arguments after `dsh import`; bad input gives an `error` naming the fix. */
export function parseImportArgs(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
  cwd: string = process.cwd(),
): ImportRequest {
  const parsed = parseArgv({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: { 'data-dir': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { values, positionals } = parsed.value;
  if (values.help === true) return { kind: 'help' };
  const [first, ...rest] = positionals;
  if (first === undefined) {
    return {
      kind: 'error',
      message:
        'nothing to import: use "dsh import claude-code [DIR|FILE]", "dsh import codex [DIR|FILE]" or "dsh import DIR|FILE"',
    };
  }
  const format: ImportFormat = first === 'claude-code' || first === 'codex' ? first : 'detect';
  const args = format === 'detect' ? positionals : rest;
  const fallback = format === 'codex' ? defaultCodexSessionsDir : defaultClaudeProjectsDir;
  const [source = fallback, ...extra] = args;
  if (extra.length > 0)
    return { kind: 'error', message: `unexpected argument ${JSON.stringify(extra[0])}` };
  return {
    kind: 'import',
    format,
    source: expandPath(source, cwd),
    dataDir: dataDirFrom(values['data-dir'], env, cwd),
  };
}

/**
 * Runs `dsh import ...`: takes the data dir's writer lock (failing, naming the holder,
 * when a host serves the dir), imports, reports malformed lines and failed transcripts on
 * stderr, progress on stderr when it is a terminal, and a summary on stdout. Resolves
 * with the exit code (1 when any transcript failed or the dir is in use).
 */
export async function runImportCommand(
  argv: readonly string[],
  env: Readonly<Record<string, string | undefined>>,
): Promise<number> {
  const request = parseImportArgs(argv, env);
  if (request.kind === 'help') {
    process.stdout.write(importUsage);
    return 0;
  }
  if (request.kind === 'error') {
    process.stderr.write(`dsh: ${request.message}\n\n${importUsage}`);
    return 2;
  }
  const tty = process.stderr.isTTY === true;
  let shown = -1;
  const progress = (done: number, total: number): void => {
    const percent = total === 0 ? 100 : Math.floor((done / total) * 100);
    if (!tty || percent === shown) return;
    shown = percent;
    process.stderr.write(`\rdsh: importing ${mib(done)} of ${mib(total)} (${percent}%)`);
  };
  const warn = (message: string): void => {
    process.stderr.write(`${tty && shown >= 0 ? '\n' : ''}dsh: ${message}\n`);
  };
  let store: FileJournalStore | undefined;
  let release: (() => Promise<void>) | undefined;
  try {
    const lock = await acquireDataDirLock(request.dataDir, 'dsh import');
    if (lock.kind === 'held') {
      const fix =
        'import through that host instead (restart it with --watch-claude), or stop it and run dsh import again';
      throw new Error(dataDirHeldMessage(request.dataDir, lock, fix));
    }
    if (lock.kind === 'read_only') throw new Error(lock.reason);
    release = lock.release;
    store = await createJournalStore({ dataDir: request.dataDir });
    const run =
      request.format === 'codex'
        ? importCodex
        : request.format === 'claude-code'
          ? importClaudeCode
          : importDetected;
    const summary = await run(store, request.source, { onProgress: progress, onWarning: warn });
    if (tty && shown >= 0) process.stderr.write('\n');
    process.stdout.write(
      `dsh: imported ${summary.files} transcript(s) into ${summary.sessions.length} session(s) ` +
        `(${summary.events} new events, ${summary.malformed} malformed line(s) skipped) in ${request.dataDir}\n`,
    );
    for (const failure of summary.failed)
      process.stderr.write(`dsh: failed: ${failure.path}: ${failure.error}\n`);
    return summary.failed.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`dsh: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await store?.close();
    await release?.();
  }
}

/**
 * Takes `--watch-claude [DIR]` (or `--watch-claude=DIR`) out of `dsh serve` arguments:
 * the option's value is optional, which `parseArgs` cannot express.
 */
export function extractWatchClaude(
  argv: readonly string[],
  cwd: string = process.cwd(),
): { argv: string[]; watchClaude: string | undefined } {
  const { argv: rest, dir } = extractOptionalDir(
    argv,
    '--watch-claude',
    defaultClaudeProjectsDir,
    cwd,
  );
  return { argv: rest, watchClaude: dir };
}

/** Takes `--watch-codex [DIR]` (default ~/.codex/sessions) out of `dsh serve` arguments. */
export function extractWatchCodex(
  argv: readonly string[],
  cwd: string = process.cwd(),
): { argv: string[]; watchCodex: string | undefined } {
  const { argv: rest, dir } = extractOptionalDir(
    argv,
    '--watch-codex',
    defaultCodexSessionsDir,
    cwd,
  );
  return { argv: rest, watchCodex: dir };
}

function extractOptionalDir(
  argv: readonly string[],
  option: string,
  fallback: string,
  cwd: string,
): { argv: string[]; dir: string | undefined } {
  const rest: string[] = [];
  let dir: string | undefined;
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i]!;
    if (arg.startsWith(`${option}=`)) {
      dir = expandPath(arg.slice(option.length + 1) || fallback, cwd);
    } else if (arg === option) {
      const next = argv[i + 1];
      const takesNext = next !== undefined && !next.startsWith('-') && next !== 'serve';
      dir = expandPath(takesNext ? next : fallback, cwd);
      if (takesNext) i += 1;
    } else rest.push(arg);
  }
  return { argv: rest, dir };
}

/**
 * The `dsh serve` hook that keeps the transcripts under `dir` imported into the served
 * store while the host runs; resolves with the function that stops it.
 */
export function attachClaudeWatch(
  dir: string,
  out: (line: string) => void,
): (store: FileJournalStore) => Promise<() => Promise<void>> {
  return async (store) => {
    const watch = await watchClaudeCode(store, dir, {
      onWarning: (message) => out(`dsh: ${message}`),
    });
    out(`dsh: watching Claude Code transcripts in ${dir}`);
    return () => watch.close();
  };
}

/** Starts watching Codex rollouts in `dir` once the host's store is open. */
export function attachCodexWatch(
  dir: string,
  out: (line: string) => void,
): (store: FileJournalStore) => Promise<() => Promise<void>> {
  return async (store) => {
    const watch = await watchCodex(store, dir, { onWarning: (message) => out(`dsh: ${message}`) });
    out(`dsh: watching Codex rollouts in ${dir}`);
    return () => watch.close();
  };
}

function mib(bytes: number): string {
  return `${(bytes / (1 << 20)).toFixed(1)} MiB`;
}
