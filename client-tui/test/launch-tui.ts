import { fileURLToPath } from 'node:url';
import { hasTmux, startTmux, type TmuxSession } from './tmux.js';

/** The repository root (where `host/cli/bin/dsh.js` lives). */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/** True when tmux is missing; says what to install (and fails under CI=true). */
export function tmuxMissing(what: string): boolean {
  const missing = !hasTmux();
  if (missing && process.env.CI === 'true') {
    throw new Error(`tmux is required for ${what}: apt-get install -y tmux`);
  }
  if (missing) console.warn(`${what} skipped: install the Debian package \`tmux\``);
  return missing;
}

/** Options of `launchTui`. */
export interface LaunchOptions {
  readonly cols?: number;
  readonly rows?: number;
  /** Extra environment (`EDITOR=...`), shell-quoted by the caller. */
  readonly env?: string;
  /** A shell command run after the client exits (the pane stays for the test to read). */
  readonly after?: string;
}

/** Starts `dsh tui` on `sessionId` of the host at `url` in a fresh tmux (80x24 by default). */
export function launchTui(
  url: string,
  sessionId: string,
  options: LaunchOptions = {},
): TmuxSession {
  const command =
    `cd ${repoRoot} && TERM=xterm-256color ${options.env ?? ''} ` +
    `node host/cli/bin/dsh.js tui --host ${url} --session ${sessionId}` +
    (options.after !== undefined ? `; ${options.after}` : '');
  return startTmux(command, options.cols ?? 80, options.rows ?? 24);
}

/** The text rows of the conversation pane (right of the list separator). */
export const conversationPane = (screen: string) =>
  screen
    .split('\n')
    .map((line) => line.split('│').slice(1).join('│'))
    .join('\n');

/** Waits `ms` milliseconds. */
export const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
