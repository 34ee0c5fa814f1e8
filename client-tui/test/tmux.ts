import { execFileSync, spawnSync } from 'node:child_process';

/** True when the `tmux` binary (Debian package `tmux`) can run. */
export function hasTmux(): boolean {
  return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
}

/** One tmux server on its own socket, holding one window, for one test. */
export interface TmuxSession {
  /** The screen as text; with `escapes`, with the SGR sequences of each cell (`-e`). */
  capture(escapes?: boolean): string;
  /** Pastes `text` as a terminal paste (bracketed when the program asked for it). */
  paste(text: string): void;
  /** A tmux format of the pane, such as `#{cursor_x}`. */
  display(format: string): string;
  keys(...keys: string[]): void;
  /** Runs a tmux command on this session's server (`set-option`, `show-buffer`), its output. */
  command(...args: string[]): string;
  /** Types literal text (no key-name lookup). */
  text(value: string): void;
  resize(cols: number, rows: number): void;
  /** Polls the pane until `predicate` holds; fails with the last screen after `timeoutMs`. */
  waitFor(
    predicate: (screen: string) => boolean,
    what: string,
    timeoutMs?: number,
  ): Promise<string>;
  kill(): void;
}

/** Starts `command` in a new detached tmux session of `cols` x `rows` on a unique socket. */
export function startTmux(command: string, cols: number, rows: number): TmuxSession {
  const socket = `dsh-tui-test-${process.pid}-${Date.now()}`;
  const tmux = (...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8' });
  const tmuxInput = (input: string, ...args: string[]) =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', input });
  tmux('new-session', '-d', '-x', String(cols), '-y', String(rows), command);
  tmux('set-option', '-g', 'remain-on-exit', 'on');
  const session: TmuxSession = {
    capture: (escapes = false) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', '0'),
    paste: (text) => {
      tmuxInput(text, 'load-buffer', '-b', 'test', '-');
      tmux('paste-buffer', '-p', '-d', '-b', 'test', '-t', '0');
    },
    display: (format) => tmux('display-message', '-p', '-t', '0', format).trim(),
    keys: (...keys) => void tmux('send-keys', '-t', '0', ...keys),
    command: (...args) => tmux(...args),
    text: (value) => void tmux('send-keys', '-t', '0', '-l', value),
    resize: (c, r) => void tmux('resize-window', '-t', '0', '-x', String(c), '-y', String(r)),
    async waitFor(predicate, what, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      let screen = '';
      while (Date.now() < deadline) {
        screen = session.capture();
        if (predicate(screen)) return screen;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`timed out waiting for ${what}; the screen was:\n${screen}`);
    },
    kill: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
  return session;
}
