import { spawnSync } from 'node:child_process';

/** True when ripgrep is installed (`rg --version` runs). */
export function hasRipgrep(): boolean {
  return spawnSync('rg', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * True when ripgrep is missing: says what to install, and throws under CI=true, where
 * `.ci/run` installs it, so a search test never passes by being skipped there.
 */
export function ripgrepAbsent(what: string): boolean {
  const missing = !hasRipgrep();
  if (missing && process.env.CI === 'true') {
    throw new Error(`ripgrep is required for ${what}: apt-get install -y ripgrep`);
  }
  if (missing) console.warn(`${what} skipped: install the Debian package \`ripgrep\``);
  return missing;
}
