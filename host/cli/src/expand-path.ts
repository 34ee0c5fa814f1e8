import { homedir } from 'node:os';
import { resolve } from 'node:path';

/** A path from the command line or environment, absolute: `~/` is the home dir, else `cwd`. */
export function expandPath(path: string, cwd: string): string {
  if (path === '~') return homedir();
  if (path.startsWith('~/')) return resolve(homedir(), path.slice(2));
  return resolve(cwd, path);
}

/**
 * Where session journals live: `--data-dir`, else `DSH_DATA_DIR` (empty counts as
 * unset), else `~/.dsh/sessions`; expanded, so every command agrees on the folder.
 */
export function dataDirFrom(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>>,
  cwd: string,
): string {
  return expandPath(flag ?? (env.DSH_DATA_DIR || undefined) ?? '~/.dsh/sessions', cwd);
}
