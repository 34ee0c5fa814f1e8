import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import {
  backgroundAck,
  errorCodes,
  interruptedMessage,
  spillNotice,
  timeoutNotice,
} from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { spillPathFor } from './output-collector.js';
import { runShellCommand } from './run-shell-command.js';
import type { ShellSessions } from './shell-sessions.js';
import type { Tool, ToolContext, ToolValue } from './tool.js';

/** Default and maximum time a foreground command may run. */
export const shellTimeouts = { defaultMs: 120_000, maxMs: 600_000 } as const;

/** Arguments of `bash` and `pwsh`. */
export interface ShellArgs {
  command: string;
  description?: string;
  workdir?: string;
  timeout_ms?: number;
  background?: boolean;
  session?: string;
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    command: { type: 'string', minLength: 1, description: 'The command to run.' },
    description: { type: 'string', description: 'What the command does, in a few words.' },
    workdir: { type: 'string', description: 'Working directory, relative to the session cwd.' },
    timeout_ms: {
      type: 'integer',
      minimum: 1,
      maximum: shellTimeouts.maxMs,
      description: `Time limit in ms (default ${shellTimeouts.defaultMs}, max ${shellTimeouts.maxMs}).`,
    },
    background: {
      type: 'boolean',
      description: 'Start the command in the background and return at once.',
    },
    session: {
      type: 'string',
      minLength: 1,
      description: 'Run in this persistent shell (keeps cwd and env between calls).',
    },
  },
  required: ['command'],
  additionalProperties: false,
};

/**
 * `bash` or `pwsh`: a standard command in its own process group (combined output and
 * a trailing exit or signal marker), a background launch, or a command in a
 * persistent shell (`session`, bash only; no exit marker).
 */
export function createShellTool(kind: 'bash' | 'pwsh', shells: ShellSessions): Tool<ShellArgs> {
  const argSchema = toolSchema<ShellArgs>(schema, (args) => {
    if (args.session === undefined) return undefined;
    if (args.background) return 'background cannot be combined with session';
    if (args.workdir !== undefined)
      return 'workdir cannot be combined with session (cd inside the session instead)';
    if (kind === 'pwsh') return 'persistent sessions are supported by the bash tool only';
    return undefined;
  });
  return {
    name: kind,
    description:
      kind === 'bash'
        ? 'Runs a bash command in the session working directory and returns its combined output and exit code.'
        : 'Runs a PowerShell (pwsh) command in the session working directory and returns its combined output and exit code.',
    ...argSchema,
    async execute(args, ctx) {
      const program = kind === 'bash' ? 'bash' : findExecutable('pwsh');
      if (program === undefined) {
        throw new ToolFailure(
          'not_installed',
          'pwsh is not installed: install PowerShell or use the bash tool',
        );
      }
      // One pipe for both streams keeps their true interleaving; `exec` on the same
      // line keeps the command's own line numbers in bash's error messages.
      const programArgs =
        kind === 'bash'
          ? ['-c', `exec 2>&1; ${args.command}`]
          : ['-NoLogo', '-NoProfile', '-NonInteractive', '-Command', args.command];
      if (args.session !== undefined) return runInSession(shells, args, args.session, ctx);
      const cwd = workdirOf(ctx.cwd, args.workdir);
      if (args.background) {
        const outputPath = spillPathFor(ctx.spillDir, ctx.callId, 'background.log');
        const job = await shells.background.launch(program, programArgs, cwd, outputPath);
        return { content: backgroundAck(job), isError: false };
      }
      const timeoutMs = args.timeout_ms ?? shellTimeouts.defaultMs;
      const outcome = await runShellCommand({
        program,
        args: programArgs,
        cwd,
        timeoutMs,
        signal: ctx.signal,
        spillFile: () => spillPathFor(ctx.spillDir, ctx.callId),
        onOutput: ctx.liveOutput?.bind(ctx),
      });
      return settleRun(outcome.content, outcome.timedOut, outcome.aborted, timeoutMs);
    },
  };
}

async function runInSession(
  shells: ShellSessions,
  args: ShellArgs,
  session: string,
  ctx: ToolContext,
): Promise<ToolValue> {
  const timeoutMs = args.timeout_ms ?? shellTimeouts.defaultMs;
  const shell = shells.shell(ctx.sessionId, session, ctx.cwd);
  const run = await shell.run(args.command, {
    timeoutMs,
    signal: ctx.signal,
    spillFile: () => spillPathFor(ctx.spillDir, ctx.callId),
    onOutput: ctx.liveOutput?.bind(ctx),
  });
  const lines: string[] = [];
  const body = run.text.endsWith('\n') ? run.text.slice(0, -1) : run.text;
  if (body !== '') lines.push(body);
  if (run.timedOut) lines.push(timeoutNotice(timeoutMs));
  if (run.shellEnded)
    lines.push(`[shell session ${session} ended; the next command starts a new shell]`);
  if (run.spill) lines.push(spillNotice(run.spill.path, run.spill.totalBytes));
  return settleRun(lines.join('\n'), run.timedOut, run.aborted, timeoutMs);
}

function settleRun(
  content: string,
  timedOut: boolean,
  aborted: boolean,
  timeoutMs: number,
): ToolValue {
  if (timedOut) {
    const failure = new ToolFailure(
      errorCodes.timeout,
      `the command ran past its ${timeoutMs} ms time limit and was killed`,
    );
    return { content, isError: true, error: failure.toInfo() };
  }
  if (aborted) {
    const failure = new ToolFailure(errorCodes.interrupted, interruptedMessage);
    return { content, isError: true, error: failure.toInfo() };
  }
  return { content, isError: false };
}

function workdirOf(cwd: string, workdir: string | undefined): string {
  const dir = resolve(cwd, workdir ?? '.');
  let isDir = false;
  try {
    isDir = statSync(dir).isDirectory();
  } catch {
    // reported below
  }
  if (!isDir)
    throw new ToolFailure('not_found', `workdir ${dir} does not exist or is not a directory`);
  return dir;
}

/** The absolute path of `name` on PATH, or `undefined`. */
export function findExecutable(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      // not here
    }
  }
  return undefined;
}
