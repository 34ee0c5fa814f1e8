import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  exitMarker,
  signalMarker,
  spillNotice,
  timeoutNotice,
  type ShellEnding,
} from '@dsh/card-models/contract';
import { ProcessTree } from './process-group.js';
import { OutputCollector } from './output-collector.js';

/** How long output pipes may stay open after the shell exits (held by background children). */
const drainAfterExitMs = 250;

/** One standard-mode shell command: what to spawn and its limits. */
export interface ShellCommand {
  program: string;
  args: string[];
  cwd: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Makes the path of the spill file, called only when output goes over the limit. */
  spillFile: () => string;
  limitChars?: number;
  /** Sees the combined output as it arrives (live output). */
  onOutput?: (text: string) => void;
}

/** How a standard-mode command ended, and its content with the trailing markers. */
export interface ShellOutcome {
  content: string;
  ending: ShellEnding;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * Runs a command in its own process group with stdout and stderr combined in arrival
 * order. On timeout or abort its whole process tree is killed (SIGTERM, then SIGKILL),
 * descendants that left the group with `setsid` included, so no child outlives the call.
 * Rejects only when the program cannot be started.
 */
export async function runShellCommand(command: ShellCommand): Promise<ShellOutcome> {
  const tree = new ProcessTree();
  const child = spawn(command.program, command.args, {
    cwd: command.cwd,
    detached: true,
    env: tree.spawnEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collector = new OutputCollector(command.spillFile, command.limitChars, command.onOutput);
  child.stdout.on('data', (chunk: Buffer) => collector.push('stdout', chunk));
  child.stderr.on('data', (chunk: Buffer) => collector.push('stderr', chunk));
  const closed = Promise.all([once(child.stdout, 'close'), once(child.stderr, 'close')]).catch(
    () => undefined,
  );
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve, reject) => {
      child.once('error', reject);
      child.once('exit', (code, signal) => resolve({ code, signal }));
    },
  );
  const pid = child.pid;
  if (pid === undefined) {
    await exited;
    throw new Error(`could not start ${command.program}`);
  }

  tree.watch(pid);
  let timedOut = false;
  let aborted = false;
  let killing: Promise<NodeJS.Signals> | undefined;
  const terminate = () => (killing ??= tree.kill());
  const timer = setTimeout(() => {
    timedOut = true;
    void terminate();
  }, command.timeoutMs);
  const onAbort = () => {
    aborted = true;
    void terminate();
  };
  if (command.signal.aborted) onAbort();
  else command.signal.addEventListener('abort', onAbort, { once: true });

  try {
    const exit = await exited;
    await Promise.race([closed, sleep(drainAfterExitMs)]);
    child.stdout.destroy();
    child.stderr.destroy();
    const sent = killing ? await killing : undefined;
    const ending: ShellEnding =
      exit.signal !== null
        ? { kind: 'signal', signal: exit.signal }
        : sent !== undefined
          ? { kind: 'signal', signal: sent }
          : { kind: 'exit', code: exit.code ?? 0 };
    const output = await collector.finish();
    const lines: string[] = [];
    const body = output.text.endsWith('\n') ? output.text.slice(0, -1) : output.text;
    if (body !== '') lines.push(body);
    if (timedOut) lines.push(timeoutNotice(command.timeoutMs));
    lines.push(ending.kind === 'exit' ? exitMarker(ending.code) : signalMarker(ending.signal));
    // Spilled output ends with the spill notice (SPEC 5), after the exit marker.
    if (output.spill) lines.push(spillNotice(output.spill.path, output.spill.totalBytes));
    return { content: lines.join('\n'), ending, timedOut, aborted };
  } finally {
    tree.forget();
    clearTimeout(timer);
    command.signal.removeEventListener('abort', onAbort);
  }
}
