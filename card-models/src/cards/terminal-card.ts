import {
  errorCodes,
  parseBackgroundAck,
  parseShellEnding,
  parseSpillNotice,
  parseTimeoutNotice,
} from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { parseJsonObject, type JsonObject } from './card-json.js';
import type { TerminalCard } from './card-types.js';
import { flattenContent } from './generic-row.js';
import { isJobTool, jobCard, jobOf } from './job-card.js';
import { abbreviateHome, resolveWorkdir, type PathFacts } from './path-facts.js';

/** An optional field: absent, or of the expected type; anything else makes the call ambiguous. */
function optional<T>(
  args: JsonObject,
  key: string,
  check: (value: unknown) => value is T,
): { ok: true; value: T | undefined } | { ok: false } {
  const value = args[key];
  if (value === undefined) return { ok: true, value: undefined };
  return check(value) ? { ok: true, value } : { ok: false };
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isNumber = (value: unknown): value is number => typeof value === 'number';

type Base = Omit<TerminalCard, 'state' | 'output' | 'live' | 'ending' | 'background' | 'timedOut'>;

const settledStates = { ok: 'ok', error: 'error', stopped: 'stopped' } as const;

/** Error codes of a command that ran (its output is terminal output) but has no exit marker. */
const ranCodes: ReadonlySet<string> = new Set([errorCodes.commandFailed, errorCodes.timeout]);

function running(block: ToolCallBlock, base: Base, background = false): TerminalCard {
  return {
    ...base,
    state: 'running',
    background,
    output: undefined,
    live: block.live,
    ending: undefined,
    timedOut: false,
  };
}

/** Standard `bash`/`pwsh`: command, description?, workdir?, timeout_ms?, background?. */
function standardShell(
  block: ToolCallBlock,
  tool: 'bash' | 'pwsh',
  args: JsonObject,
  command: string,
  facts: PathFacts,
): TerminalCard | undefined {
  const description = optional(args, 'description', isString);
  const workdir = optional(args, 'workdir', isString);
  const timeout = optional(args, 'timeout_ms', isNumber);
  const background = optional(args, 'background', isBoolean);
  if (!description.ok || !workdir.ok || !timeout.ok || !background.ok) return undefined;
  const cwd = resolveWorkdir(workdir.value, facts.cwd);
  const base: Base = {
    kind: 'terminal',
    tool,
    command,
    description: description.value,
    cwd,
    displayCwd: abbreviateHome(cwd, facts.home),
    session: undefined,
  };
  const isBackground = background.value === true;
  if (block.status === 'running') return running(block, base, isBackground);
  const result = block.result;
  if (!result) return undefined;
  const text = flattenContent(result.content);
  if (isBackground) {
    // A launch acknowledgement (or an imported launch's job meta) clears the prompt to
    // the static command; errors are Generic.
    if (result.isError || (!parseBackgroundAck(text) && jobOf(result.metaJson) === undefined))
      return undefined;
    return {
      ...base,
      state: 'ok',
      background: true,
      output: undefined,
      live: undefined,
      ending: undefined,
      timedOut: false,
    };
  }
  if (parseSpillNotice(text)) return undefined;
  const parsed = parseShellEnding(text);
  // An error or a stopped call is a terminal only when the command ran to a recorded
  // ending, or its error says it ran and failed (or timed out) without recording one.
  const ranWithoutEnding = block.status === 'error' && ranCodes.has(result.error?.code ?? '');
  if (block.status !== 'ok' && !parsed && !ranWithoutEnding) return undefined;
  const output = parsed ? parsed.body : text;
  return {
    ...base,
    state: settledStates[block.status],
    background: false,
    output,
    live: undefined,
    ending: parsed?.ending,
    timedOut: result.error?.code === errorCodes.timeout || parseTimeoutNotice(output) !== undefined,
  };
}

/** Persistent shell `bash`/`pwsh`: command and session; a prompt while running only. */
function persistentShell(
  block: ToolCallBlock,
  tool: 'bash' | 'pwsh',
  args: JsonObject,
  command: string,
  session: string,
): TerminalCard | undefined {
  const description = optional(args, 'description', isString);
  if (!description.ok) return undefined;
  // Fields of the standard shell next to `session` leave the provider ambiguous.
  if (['workdir', 'timeout_ms', 'background'].some((key) => args[key] !== undefined)) {
    return undefined;
  }
  if (block.status !== 'running') return undefined;
  return running(block, {
    kind: 'terminal',
    tool,
    command,
    description: description.value,
    cwd: undefined,
    displayCwd: undefined,
    session,
  });
}

/** `terminal_send`: session, input, background?; a terminal in the foreground only. */
function terminalSend(block: ToolCallBlock, args: JsonObject): TerminalCard | undefined {
  const session = args.session;
  const input = args.input;
  const background = optional(args, 'background', isBoolean);
  if (typeof session !== 'string' || session === '' || typeof input !== 'string') return undefined;
  if (!background.ok || background.value === true) return undefined;
  const base: Base = {
    kind: 'terminal',
    tool: 'terminal_send',
    command: input,
    description: undefined,
    cwd: undefined,
    displayCwd: undefined,
    session,
  };
  if (block.status === 'running') return running(block, base);
  const result = block.result;
  if (block.status !== 'ok' || !result || result.isError) return undefined;
  const text = flattenContent(result.content);
  if (parseSpillNotice(text)) return undefined;
  return {
    ...base,
    state: 'ok',
    background: false,
    output: text,
    live: undefined,
    ending: undefined,
    timedOut: false,
  };
}

/**
 * The terminal card of a shell call (SPEC 7.2 Terminal), or `undefined` for the Generic
 * card: errors and stopped calls without an exit marker, spilled output, settled persistent shells,
 * background `terminal_send`, settled background launches that are not acknowledged,
 * malformed arguments and orphans. Sub-calls follow the same rules as top-level calls.
 */
export function terminalCard(block: ToolCallBlock, facts: PathFacts): TerminalCard | undefined {
  if (block.call === null) return undefined;
  const args = parseJsonObject(block.argsRaw);
  if (!args) return undefined;
  if (block.name === 'terminal_send') return terminalSend(block, args);
  if (isJobTool(block.name)) return jobCard(block, args, facts);
  if (block.name !== 'bash' && block.name !== 'pwsh') return undefined;
  const command = args.command;
  if (typeof command !== 'string' || command.trim() === '') return undefined;
  const session = args.session;
  if (session === undefined) return standardShell(block, block.name, args, command, facts);
  if (typeof session !== 'string' || session === '') return undefined;
  return persistentShell(block, block.name, args, command, session);
}
