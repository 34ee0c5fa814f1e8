import type { ShellJobMeta } from '@dsh/card-models/contract';
import { isRecord, numberOf, stringOf } from '../json-fields.js';
import { tagContent } from './user-text.js';

type Job = ShellJobMeta['job'];

/**
 * The job a background `Bash` launch started, from its `backgroundTaskId` and the
 * acknowledgement text (`Command running in background with ID: X. Output is being
 * written to: FILE`); `undefined` for a foreground command.
 */
export function launchedJob(text: string, toolUseResult: unknown): Job | undefined {
  const facts = isRecord(toolUseResult) ? toolUseResult : undefined;
  const id =
    stringOf(facts, 'backgroundTaskId') ??
    /^Command running in background with ID: ([^\s.]+)/.exec(text.trim())?.[1];
  if (id === undefined || id === '') return undefined;
  const outputPath = /Output is being written to: (\S+)/.exec(text)?.[1];
  return { id, ...(outputPath === undefined ? {} : { outputPath }) };
}

/**
 * A read of a job's output (`BashOutput` or `TaskOutput`): the job, its command (from the
 * result, else the launch the importer saw), status, exit code and the output read.
 */
export function readJob(
  args: Record<string, unknown>,
  text: string,
  toolUseResult: unknown,
  commands: Readonly<Record<string, string>>,
): Job | undefined {
  const facts = isRecord(toolUseResult) ? toolUseResult : {};
  const task = isRecord(facts.task) ? facts.task : undefined;
  const id =
    stringOf(facts, 'shellId') ??
    stringOf(task, 'task_id') ??
    stringOf(args, 'bash_id') ??
    stringOf(args, 'shell_id') ??
    stringOf(args, 'task_id');
  if (id === undefined || id === '') return undefined;
  const command =
    stringOf(facts, 'command') ??
    (Object.hasOwn(commands, id) ? commands[id] : undefined) ??
    stringOf(task, 'description');
  const status =
    stringOf(facts, 'status') ?? stringOf(task, 'status') ?? tagContent(text, 'status');
  const exitText = tagContent(text, 'exit_code');
  const exitCode =
    numberOf(facts, 'exitCode') ??
    numberOf(task, 'exitCode') ??
    numberOf(task, 'exit_code') ??
    (exitText !== undefined && /^-?\d+$/.test(exitText) ? Number(exitText) : undefined);
  const output = task
    ? stringOf(task, 'output')
    : (joinOutput(stringOf(facts, 'stdout'), stringOf(facts, 'stderr')) ??
      joinOutput(tagContent(text, 'stdout'), tagContent(text, 'stderr')) ??
      tagContent(text, 'output'));
  return {
    id,
    ...(command === undefined ? {} : { command }),
    ...(status === undefined ? {} : { status }),
    ...(exitCode === undefined ? {} : { exitCode }),
    ...(output === undefined ? {} : { output }),
  };
}

/** A request to stop a job (`KillBash`, `KillShell`): the job and its command. */
export function stoppedJob(
  args: Record<string, unknown>,
  toolUseResult: unknown,
  commands: Readonly<Record<string, string>>,
): Job | undefined {
  const facts = isRecord(toolUseResult) ? toolUseResult : {};
  const id = stringOf(facts, 'shell_id') ?? stringOf(args, 'shell_id') ?? stringOf(args, 'bash_id');
  if (id === undefined || id === '') return undefined;
  const message = stringOf(facts, 'message') ?? '';
  const named = /\((.+)\)\s*$/.exec(message)?.[1];
  const command = (Object.hasOwn(commands, id) ? commands[id] : undefined) ?? named;
  return {
    id,
    status: facts.success === false ? 'running' : 'killed',
    ...(command === undefined ? {} : { command }),
    ...(message === '' ? {} : { output: message }),
  };
}

function joinOutput(stdout: string | undefined, stderr: string | undefined): string | undefined {
  if (stdout === undefined && stderr === undefined) return undefined;
  return [stdout, stderr].filter((part) => part !== undefined && part !== '').join('\n');
}
