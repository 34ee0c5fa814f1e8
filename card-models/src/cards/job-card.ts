import type { ToolCallBlock } from '../conversation/types.js';
import { isObject, parseJsonObject, stringField, type JsonObject } from './card-json.js';
import type { TerminalCard } from './card-types.js';
import { flattenContent } from './generic-row.js';
import { abbreviateHome, resolveWorkdir, type PathFacts } from './path-facts.js';

/** A background shell job as a tool's meta records it (`ShellJobMeta.job`), checked. */
export interface JobFacts {
  readonly id: string;
  readonly command: string | undefined;
  readonly status: string | undefined;
  readonly exitCode: number | undefined;
  readonly output: string | undefined;
}

const readTools: ReadonlySet<string> = new Set(['BashOutput', 'TaskOutput']);
const stopTools: ReadonlySet<string> = new Set(['KillBash', 'KillShell']);

/** True for an imported tool that reads or stops a background shell job. */
export function isJobTool(name: string): boolean {
  return readTools.has(name) || stopTools.has(name);
}

/** The job named by a tool's meta JSON text (`{job: {id, ...}}`), or `undefined`. */
export function jobOf(metaJson: string): JobFacts | undefined {
  const job = parseJsonObject(metaJson)?.job;
  if (!isObject(job)) return undefined;
  const id = stringField(job, 'id');
  if (!id) return undefined;
  const exitCode = job.exitCode;
  return {
    id,
    command: stringField(job, 'command') || undefined,
    status: stringField(job, 'status') || undefined,
    exitCode: Number.isInteger(exitCode) ? (exitCode as number) : undefined,
    output: stringField(job, 'output'),
  };
}

/** The job id a read or stop call names in its arguments. */
function argJobId(args: JsonObject): string | undefined {
  return (
    stringField(args, 'bash_id') ||
    stringField(args, 'shell_id') ||
    stringField(args, 'task_id') ||
    undefined
  );
}

/**
 * The terminal card of a call that reads a background job's output or stops the job
 * (imported `BashOutput`, `TaskOutput`, `KillBash`, `KillShell`): the job's command as
 * the prompt once the result names it, the output read (or the stop message), and the
 * exit code once the job ended. Errors and results without job meta are Generic.
 */
export function jobCard(
  block: ToolCallBlock,
  args: JsonObject,
  facts: PathFacts,
): TerminalCard | undefined {
  const id = argJobId(args);
  if (id === undefined) return undefined;
  const stop = stopTools.has(block.name);
  const job = block.result === undefined ? undefined : jobOf(block.result.metaJson);
  const cwd = resolveWorkdir(undefined, facts.cwd);
  const card = {
    kind: 'terminal',
    tool: 'bash',
    command: job?.command ?? `job ${id}`,
    description: `${stop ? 'Stop' : 'Output of'} background job ${id}${job?.status === 'running' && !stop ? ' (still running)' : ''}`,
    cwd,
    displayCwd: abbreviateHome(cwd, facts.home),
    session: undefined,
    background: false,
    timedOut: false,
    live: undefined,
  } as const;
  if (block.status === 'running') {
    return { ...card, state: 'running', output: undefined, ending: undefined };
  }
  const result = block.result;
  if (block.status !== 'ok' || result === undefined || job === undefined) return undefined;
  return {
    ...card,
    state: 'ok',
    output: job.output ?? flattenContent(result.content),
    ending: job.exitCode === undefined ? undefined : { kind: 'exit', code: job.exitCode },
  };
}
