import { create } from '@bufbuild/protobuf';
import {
  errorCodes,
  type ChildSessionMeta,
  type PlanMeta,
  type ShellJobMeta,
} from '@dsh/card-models/contract';
import type { ContentBlock } from '@dsh/gen/content';
import { ToolErrorSchema, type ToolError } from '@dsh/gen/events';
import type { EventPayload } from '@dsh/journal';
import { contentBlocks, contentText, textBlock } from '../content-blocks.js';
import { diffMeta } from './diff-meta.js';
import { readFromText, readResult } from './read-result.js';
import { launchedJob, readJob, stoppedJob } from './job-meta.js';
import {
  globFromText,
  globMeta,
  grepFromText,
  grepListingMeta,
  grepMeta,
  lsMeta,
} from './search-meta.js';
import { shellOutput } from './shell-result.js';
import { isRecord, parseRecord, stringOf, type JsonRecord } from '../json-fields.js';
import { webFetchMeta, webSearchMeta } from './web-meta.js';

/** A tool call seen in the transcript and not settled yet. */
export interface OpenCall {
  /** The dsh tool name (first-party name, or Claude Code's own). */
  readonly name: string;
  /** The translated argument JSON text. */
  readonly args: string;
  readonly turn: number;
  readonly step: number;
}

/** What a result's translation may read and record beyond the call itself. */
export interface ResultContext {
  /** Commands of the background jobs launched so far, by job id. */
  readonly jobs: Readonly<Record<string, string>>;
  /** The dsh session a sub-agent ran as (see `ConverterLinks`). */
  childSession(agent: { agentId?: string; prompt?: string }): string | undefined;
  /** Records a launched job's command, or the Task call a sub-agent ran for. */
  remember(kind: 'job' | 'agent', key: string, value: string): void;
}

/**
 * Translates a `tool_result` block (and the line's `toolUseResult`, when it belongs to
 * this block alone) into a dsh `tool/result`: content, error and the meta of the tool
 * contract, so imported calls get the same cards as the agent runtime's own.
 */
export function translateToolResult(
  block: JsonRecord,
  call: OpenCall | undefined,
  toolUseResult: unknown,
  at: { turn: number; step: number },
  context?: ResultContext,
): EventPayload {
  const callId = stringOf(block, 'tool_use_id') ?? '';
  const name = call?.name ?? '';
  const args = parseArgs(call?.args);
  let content = contentBlocks(block.content);
  let isError = block.is_error === true;
  let error: ToolError | undefined;
  let meta: unknown;
  const text = contentText(content);
  const single = content.length <= 1 && (content.length === 0 || content[0]?.block.case === 'text');
  const replace = (next: string): void => {
    if (single) content = [textBlock(next)];
  };
  if (isError) {
    error = classifyError(text, name, toolUseResult);
    if (name === 'bash' && error.code === 'tool_error') {
      const output = shellOutput(text, true, toolUseResult);
      replace(output);
      if (output === text) error = shellFailure(text);
    }
    if (
      name === 'ExitPlanMode' &&
      error.code === 'tool_error' &&
      /^User rejected/i.test(text.trim())
    ) {
      error = toolError('Denied', errorCodes.denied, firstLine(text));
    }
  } else if (name === 'bash' && isRecord(toolUseResult) && toolUseResult.interrupted === true) {
    isError = true;
    error = toolError('Interrupted', errorCodes.interrupted, 'the command was interrupted');
  } else {
    switch (name) {
      case 'bash': {
        replace(shellOutput(text, false, toolUseResult));
        const job = launchedJob(text, toolUseResult);
        if (job !== undefined) {
          meta = { job } satisfies ShellJobMeta;
          const command = stringOf(args, 'command');
          if (command !== undefined) context?.remember('job', job.id, command);
        }
        break;
      }
      case 'BashOutput':
      case 'TaskOutput': {
        const job = readJob(args, text, toolUseResult, context?.jobs ?? {});
        if (job !== undefined) meta = { job } satisfies ShellJobMeta;
        break;
      }
      case 'KillBash':
      case 'KillShell': {
        const job = stoppedJob(args, toolUseResult, context?.jobs ?? {});
        if (job !== undefined) meta = { job } satisfies ShellJobMeta;
        break;
      }
      case 'Task':
      case 'Agent': {
        const agentId = isRecord(toolUseResult) ? stringOf(toolUseResult, 'agentId') : undefined;
        if (agentId !== undefined) context?.remember('agent', agentId, callId);
        const child = context?.childSession({ agentId, prompt: stringOf(args, 'prompt') });
        if (child !== undefined) meta = { childSessionId: child } satisfies ChildSessionMeta;
        break;
      }
      case 'ExitPlanMode': {
        const facts = isRecord(toolUseResult) ? toolUseResult : {};
        const plan = stringOf(facts, 'plan');
        const path = stringOf(facts, 'filePath');
        if (plan !== undefined || path !== undefined)
          meta = {
            ...(plan === undefined ? {} : { plan }),
            ...(path === undefined ? {} : { path }),
          } satisfies PlanMeta;
        break;
      }
      case 'LS':
        meta = lsMeta(text);
        break;
      case 'read': {
        const read = !single
          ? undefined
          : toolUseResult === undefined
            ? readFromText(text, stringOf(args, 'file_path'))
            : readResult(text, toolUseResult);
        if (read !== undefined) {
          replace(read.text);
          meta = read.meta;
        }
        break;
      }
      case 'write':
      case 'edit':
        meta = diffMeta(toolUseResult, args);
        break;
      case 'grep':
        meta =
          toolUseResult === undefined
            ? grepFromText(text, stringOf(args, 'output_mode'), stringOf(args, 'path'))
            : (grepMeta(toolUseResult, stringOf(args, 'path')) ?? grepListingMeta(toolUseResult));
        break;
      case 'glob':
        meta = toolUseResult === undefined ? globFromText(text) : globMeta(toolUseResult);
        break;
      case 'web_fetch':
        meta = webFetchMeta(toolUseResult, stringOf(args, 'url'));
        break;
      case 'web_search':
        meta = webSearchMeta(toolUseResult);
        break;
      default:
        break;
    }
  }
  return toolResultPayload(at, callId, content, isError, error, meta);
}

function toolResultPayload(
  at: { turn: number; step: number },
  callId: string,
  content: ContentBlock[],
  isError: boolean,
  error: ToolError | undefined,
  meta: unknown,
): EventPayload {
  return {
    case: 'toolResult',
    value: {
      $typeName: 'dsh.session.v1.ToolResult',
      turn: at.turn,
      step: at.step,
      callId,
      content,
      isError,
      error,
      metaJson: meta === undefined ? '' : JSON.stringify(meta),
    },
  };
}

/** The structured error of a failed Claude Code tool result. */
function classifyError(text: string, name: string, toolUseResult: unknown): ToolError {
  const message = firstLine(text.replace(/<\/?tool_use_error>/g, ''));
  const interrupted =
    (isRecord(toolUseResult) && toolUseResult.interrupted === true) ||
    /^\[Request interrupted by user/.test(text) ||
    /^Interrupted by user/i.test(text);
  if (interrupted) return toolError('Interrupted', errorCodes.interrupted, message);
  if (/doesn't want to (?:proceed|take this action)/.test(text)) {
    const code = name === 'ask_user' ? errorCodes.cancelled : errorCodes.denied;
    return toolError(name === 'ask_user' ? 'Cancelled' : 'Denied', code, message);
  }
  return toolError('ToolError', 'tool_error', message);
}

/**
 * The error of a failed command whose result names no exit code (Claude Code 1.x flags
 * the failure only): a timeout when its output says so, else `command_failed`, so the
 * card still shows the output as a failed terminal.
 */
function shellFailure(text: string): ToolError {
  const timedOut = /^Command timed out after (\S+)/.exec(text.trim());
  if (timedOut) return toolError('Timeout', errorCodes.timeout, `timed out after ${timedOut[1]}`);
  if (/^<tool_use_error>|^Sibling tool call errored/.test(text.trim())) {
    return toolError(
      'ToolError',
      'tool_error',
      firstLine(text.replace(/<\/?tool_use_error>/g, '')),
    );
  }
  return toolError(
    'CommandFailed',
    errorCodes.commandFailed,
    'the command failed (Claude Code recorded no exit code)',
  );
}

function toolError(name: string, code: string, message: string): ToolError {
  return create(ToolErrorSchema, { name, code, message });
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}

function parseArgs(args: string | undefined): JsonRecord {
  return parseRecord(args) ?? {};
}
