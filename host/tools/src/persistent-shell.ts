import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { StringDecoder } from 'node:string_decoder';
import { ProcessTree } from './process-group.js';
import { OutputCollector } from './output-collector.js';

/** The limits and hooks of one command in a persistent shell. */
export interface RunOptions {
  timeoutMs: number;
  signal: AbortSignal;
  spillFile: () => string;
  /** Sees the command's output as it arrives, without the end-of-command marker. */
  onOutput?: (text: string) => void;
}

/** The outcome of one command in a persistent shell. */
export interface PersistentRun {
  /** The command's output (head, when spilled). */
  text: string;
  spill?: { path: string; totalBytes: number };
  timedOut: boolean;
  aborted: boolean;
  /** The shell itself ended (the command ran `exit`, or it was killed). */
  shellEnded: boolean;
}

/**
 * A long-lived bash reading commands from a pipe, so `cd`, variables and functions
 * persist between calls. Each command is followed, on the same input line, by a
 * unique sentinel echo that marks the end of its output.
 */
export class PersistentShell {
  private readonly child: ChildProcessWithoutNullStreams;
  private readonly tree = new ProcessTree();
  private readonly listeners = new Set<(text: string) => void>();
  private readonly ended: Promise<void>;
  private queue: Promise<unknown> = Promise.resolve();
  private alive = true;

  constructor(cwd: string) {
    this.child = spawn('bash', ['--noprofile', '--norc'], {
      cwd,
      detached: true,
      env: this.tree.spawnEnv(),
    });
    if (this.child.pid !== undefined) this.tree.watch(this.child.pid);
    const decoder = new StringDecoder('utf8');
    const emit = (chunk: Buffer) => {
      const text = decoder.write(chunk);
      if (text !== '') for (const listener of this.listeners) listener(text);
    };
    this.child.stdout.on('data', emit);
    this.child.stderr.on('data', emit);
    this.child.stdin.on('error', () => undefined);
    this.ended = new Promise<void>((resolve) => {
      this.child.once('error', () => resolve());
      this.child.once('exit', () => resolve());
    }).then(() => {
      this.alive = false;
    });
    this.child.stdin.write('exec 2>&1\n');
  }

  /** Whether the shell process is still running. */
  get isAlive(): boolean {
    return this.alive;
  }

  /** Runs `command` after any command already running; see `PersistentRun`. */
  run(command: string, options: RunOptions): Promise<PersistentRun> {
    const result = this.queue.then(() => this.runNow(command, options));
    this.queue = result.catch(() => undefined);
    return result;
  }

  /**
   * Writes raw input to the shell (or the program reading its stdin) and, unless in
   * background, collects output until it has been quiet for `idleMs`.
   */
  async send(
    input: string,
    options: {
      background: boolean;
      idleMs: number;
      maxWaitMs: number;
      signal: AbortSignal;
      /** Sees the output as it arrives (live output). */
      onOutput?: (text: string) => void;
    },
  ): Promise<string> {
    if (options.background) {
      this.child.stdin.write(input);
      return '';
    }
    let text = '';
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    let idle = setTimeout(finish, options.idleMs);
    const listener = (chunk: string) => {
      text += chunk;
      options.onOutput?.(chunk);
      clearTimeout(idle);
      idle = setTimeout(finish, options.idleMs);
    };
    const cap = setTimeout(finish, options.maxWaitMs);
    this.listeners.add(listener);
    options.signal.addEventListener('abort', finish, { once: true });
    void this.ended.then(finish);
    try {
      this.child.stdin.write(input);
      await done;
    } finally {
      clearTimeout(idle);
      clearTimeout(cap);
      this.listeners.delete(listener);
      options.signal.removeEventListener('abort', finish);
    }
    return text;
  }

  /** Kills the shell and everything it started, `setsid` descendants included. */
  async dispose(): Promise<void> {
    if (this.alive && this.child.pid !== undefined) await this.tree.kill();
    this.tree.forget();
    await this.ended;
  }

  private async runNow(command: string, options: RunOptions): Promise<PersistentRun> {
    if (!this.alive) {
      return { text: '', timedOut: false, aborted: false, shellEnded: true };
    }
    const sentinel = `__dsh_done_${randomUUID().replace(/-/g, '')}__`;
    const marker = `\n${sentinel}\n`;
    const collector = new OutputCollector(options.spillFile, undefined, options.onOutput);
    let pending = '';
    let timedOut = false;
    let aborted = false;
    let finish: (shellEnded: boolean) => void = () => undefined;
    const finished = new Promise<boolean>((resolve) => (finish = resolve));
    const listener = (chunk: string) => {
      pending += chunk;
      const at = pending.indexOf(marker);
      if (at >= 0) {
        collector.pushText(pending.slice(0, at));
        pending = '';
        finish(false);
        return;
      }
      const keep = markerPrefixAtEnd(pending, marker);
      collector.pushText(pending.slice(0, pending.length - keep));
      pending = pending.slice(pending.length - keep);
    };
    const stop = (reason: 'timeout' | 'abort') => {
      if (reason === 'timeout') timedOut = true;
      else aborted = true;
      void this.dispose().then(() => finish(true));
    };
    const timer = setTimeout(() => stop('timeout'), options.timeoutMs);
    const onAbort = () => stop('abort');
    options.signal.addEventListener('abort', onAbort, { once: true });
    void this.ended.then(() => finish(true));
    this.listeners.add(listener);
    try {
      if (options.signal.aborted) onAbort();
      else this.child.stdin.write(`eval ${ansiCQuote(command)}; printf '\\n%s\\n' '${sentinel}'\n`);
      const shellEnded = await finished;
      collector.pushText(pending);
      const output = await collector.finish();
      return { text: output.text, spill: output.spill, timedOut, aborted, shellEnded };
    } finally {
      clearTimeout(timer);
      options.signal.removeEventListener('abort', onAbort);
      this.listeners.delete(listener);
    }
  }
}

/**
 * The length of the longest end of `text` that could be the start of `marker`: only that
 * much output waits for the next read, so live output lags a command by a partial line
 * at most (the marker starts with a newline).
 */
export function markerPrefixAtEnd(text: string, marker: string): number {
  const from = Math.max(0, text.length - marker.length + 1);
  for (
    let at = text.indexOf(marker[0] ?? '', from);
    at >= 0;
    at = text.indexOf(marker[0] ?? '', at + 1)
  ) {
    if (marker.startsWith(text.slice(at))) return text.length - at;
  }
  return 0;
}

/** Quotes text as a bash `$'...'` word on one physical line. */
export function ansiCQuote(text: string): string {
  // Control characters are escaped so the whole command stays on one input line.
  // eslint-disable-next-line no-control-regex
  const body = text.replace(/[\\'\x00-\x1f\x7f]/g, (c) => {
    if (c === '\\') return '\\\\';
    if (c === "'") return "\\'";
    return `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`;
  });
  return `$'${body}'`;
}
