import { create } from '@bufbuild/protobuf';
import { errorCodes, exitMarker } from '@dsh/card-models/contract';
import { ToolErrorSchema, type ToolError } from '@dsh/gen/events';
import { isRecord, numberOf, parseRecord, stringOf, type JsonRecord } from '../json-fields.js';
import { parsePatch, patchDiff, splitPatch, type PatchFile } from './apply-patch.js';

/** How a Codex call's output is read: which tool family it belongs to. */
export type CodexToolKind = 'shell' | 'exec' | 'stdin' | 'patch' | 'plan' | 'search' | 'other';

/** A Codex call as dsh shows it: a first-party tool name and arguments where one fits. */
export interface CodexCall {
  readonly name: string;
  /** Argument JSON text. */
  readonly args: string;
  readonly kind: CodexToolKind;
  /** The patch text of an `apply_patch` call (also one run through `shell`). */
  readonly patch?: string;
}

/** A call's result as dsh records it. */
export interface CodexResult {
  readonly text: string;
  readonly isError: boolean;
  readonly error: ToolError | undefined;
  readonly meta: unknown;
}

/**
 * Translates a Codex tool call (`function_call` name and argument text, or a
 * `custom_tool_call`'s raw input) into a dsh call: `shell`, `container.exec` and
 * `exec_command` become `bash`, `write_stdin` `terminal_send`, `update_plan`
 * `todo_write`, a one-file `apply_patch` `write` or `edit`. Anything else (MCP tools,
 * multi-file patches, arguments that are not JSON) keeps its name and arguments; a
 * multi-file patch is split into one call per file by `patchParts`.
 */
export function translateCodexCall(name: string, input: string): CodexCall {
  const args = parseRecord(input);
  const keep: CodexCall = { name, args: input, kind: 'other' };
  if (name === 'apply_patch') {
    const patch = args === undefined ? input : stringOf(args, 'input');
    return patch === undefined ? keep : patchCall(patch, input);
  }
  if (args === undefined) return keep;
  switch (name) {
    case 'shell':
    case 'container.exec':
    case 'local_shell':
      return shellCall(args, input);
    case 'exec_command': {
      const cmd = stringOf(args, 'cmd');
      if (cmd === undefined) return keep;
      return bash({ command: cmd, workdir: stringOf(args, 'workdir') }, 'exec');
    }
    case 'write_stdin': {
      const session = args.session_id;
      const chars = stringOf(args, 'chars');
      if ((typeof session !== 'number' && typeof session !== 'string') || chars === undefined)
        return keep;
      const dsh = { session: String(session), input: chars };
      return { name: 'terminal_send', args: JSON.stringify(dsh), kind: 'stdin' };
    }
    case 'update_plan':
      return planCall(args, input);
    default:
      return keep;
  }
}

/** The dsh call of a `local_shell_call` item's `action`. */
export function localShellCall(action: unknown): CodexCall {
  const raw = JSON.stringify(action ?? null);
  if (!isRecord(action)) return { name: 'local_shell', args: raw, kind: 'other' };
  return shellCall(
    {
      command: action.command,
      workdir: action.working_directory,
      timeout_ms: action.timeout_ms,
    },
    raw,
  );
}

function shellCall(args: JsonRecord, raw: string): CodexCall {
  const argv = args.command;
  if (!Array.isArray(argv) || argv.some((a) => typeof a !== 'string') || argv.length === 0)
    return { name: 'shell', args: raw, kind: 'other' };
  const words = argv as string[];
  const script =
    words.length === 3 &&
    /^(?:ba|z)?sh$/.test(words[0]!.split('/').at(-1)!) &&
    /^-l?c$/.test(words[1]!)
      ? words[2]!
      : undefined;
  const patch = patchOfCommand(words, script);
  if (patch !== undefined) return patchCall(patch, raw);
  const command = script ?? words.map(quoteWord).join(' ');
  const timeout = numberOf(args, 'timeout_ms');
  return bash({ command, workdir: stringOf(args, 'workdir'), timeout_ms: timeout }, 'shell');
}

function bash(args: JsonRecord, kind: CodexToolKind): CodexCall {
  const defined = Object.fromEntries(Object.entries(args).filter(([, v]) => v !== undefined));
  return { name: 'bash', args: JSON.stringify(defined), kind };
}

/** The patch of `apply_patch PATCH` or `bash -lc "apply_patch <<'EOF' ... EOF"`. */
function patchOfCommand(words: string[], script: string | undefined): string | undefined {
  if (words.length === 2 && words[0] === 'apply_patch') return words[1];
  if (script === undefined) return undefined;
  const heredoc = /^\s*apply_patch\s+<<\s*['"]?(\w+)['"]?\n([\s\S]*?)\n\1\s*$/.exec(script);
  return heredoc?.[2];
}

/**
 * The calls dsh shows for one Codex call: a patch touching several files becomes one
 * call per file (each a `write`, `edit` or, for a deletion, `apply_patch` of that file
 * alone), so each file gets its own diff card; any other call is itself.
 */
export function patchParts(call: CodexCall): CodexCall[] {
  if (call.kind !== 'patch' || call.patch === undefined) return [call];
  const sections = splitPatch(call.patch);
  if (sections === undefined || sections.length < 2) return [call];
  return sections.map((section) => patchCall(section, JSON.stringify({ input: section })));
}

function patchCall(patch: string, raw: string): CodexCall {
  const files = parsePatch(patch);
  const keep: CodexCall = { name: 'apply_patch', args: raw, kind: 'patch', patch };
  if (files === undefined || files.length !== 1) return keep;
  const file = files[0]!;
  if (file.kind === 'add') {
    return {
      ...keep,
      name: 'write',
      args: JSON.stringify({ file_path: file.path, content: file.text }),
    };
  }
  if (file.kind !== 'update' || file.chunks.length === 0) return keep;
  const edits = file.chunks.map((c) => ({ old_string: c.old, new_string: c.new }));
  const args =
    edits.length === 1 ? { file_path: file.path, ...edits[0] } : { file_path: file.path, edits };
  return { ...keep, name: 'edit', args: JSON.stringify(args) };
}

function planCall(args: JsonRecord, raw: string): CodexCall {
  const plan = args.plan;
  if (!Array.isArray(plan)) return { name: 'update_plan', args: raw, kind: 'other' };
  const todos = plan.flatMap((item: unknown) => {
    if (!isRecord(item)) return [];
    const step = stringOf(item, 'step');
    const status = stringOf(item, 'status');
    return step === undefined || status === undefined ? [] : [{ content: step, status }];
  });
  const explanation = stringOf(args, 'explanation');
  const dsh = { todos, ...(explanation === undefined ? {} : { explanation }) };
  return { name: 'todo_write', args: JSON.stringify(dsh), kind: 'plan' };
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * Translates a call's output: shell output gets the dsh exit marker when Codex recorded
 * the exit code (`metadata.exit_code`, `Process exited with code N`, `exit code: N` in a
 * sandbox failure), a successful patch the diff meta of its files, a web search the
 * search meta (Codex records no sources). Other outputs are kept as they are.
 */
export function translateCodexOutput(call: CodexCall | undefined, output: string): CodexResult {
  const plain: CodexResult = { text: output, isError: false, error: undefined, meta: undefined };
  if (call === undefined) return plain;
  switch (call.kind) {
    case 'shell':
    case 'exec':
    case 'stdin':
      return shellResult(output, call.kind);
    case 'patch':
      return patchResult(output, call.patch ?? '');
    case 'search':
      return { ...plain, meta: { sources: [], truncated: false } };
    case 'plan':
    case 'other':
      return plain;
    default: {
      const never: never = call.kind;
      return never;
    }
  }
}

/** The output and exit code of a shell call's output text, as far as Codex recorded them. */
function shellEnding(output: string): { body: string; code: number | undefined; failed: boolean } {
  const json = parseRecord(output);
  if (json !== undefined && typeof json.output === 'string') {
    const code = isRecord(json.metadata) ? numberOf(json.metadata, 'exit_code') : undefined;
    return { body: json.output, code, failed: false };
  }
  const exec =
    /^(?:Chunk ID: .*\n)?Wall time: .*\n(?:Process exited with code (-?\d+)\n)?[\s\S]*?Output:\n/.exec(
      output,
    );
  if (exec) {
    const code = exec[1] === undefined ? undefined : Number(exec[1]);
    return { body: output.slice(exec[0].length), code, failed: false };
  }
  const head = /^Exit code: (-?\d+)\nWall time: .*\nOutput:\n/.exec(output);
  if (head) return { body: output.slice(head[0].length), code: Number(head[1]), failed: false };
  const sandbox = /^failed in sandbox[\s\S]*?exit code: (-?\d+)/.exec(output);
  if (sandbox) return { body: output, code: Number(sandbox[1]), failed: true };
  return { body: output, code: undefined, failed: false };
}

function shellResult(output: string, kind: CodexToolKind): CodexResult {
  const { body, code, failed } = shellEnding(output);
  const marked =
    code === undefined || kind === 'stdin'
      ? body
      : `${body}${body === '' || body.endsWith('\n') ? '' : '\n'}${exitMarker(code)}`;
  const error = failed
    ? toolError('SandboxDenied', errorCodes.denied, firstLine(output))
    : undefined;
  return { text: marked, isError: failed, error, meta: undefined };
}

function patchResult(output: string, patch: string): CodexResult {
  const { body, code } = shellEnding(output);
  const ok = code === 0 || (code === undefined && /^Success\./.test(body.trim()));
  if (!ok) {
    return {
      text: body,
      isError: true,
      error: toolError('ToolError', 'tool_error', firstLine(body)),
      meta: undefined,
    };
  }
  const files: PatchFile[] = parsePatch(patch) ?? [];
  const diffs = files.flatMap((file) => {
    const diff = patchDiff(file);
    return diff === undefined ? [] : [diff];
  });
  return {
    text: body,
    isError: false,
    error: undefined,
    meta: diffs.length === 0 ? undefined : { diffs },
  };
}

function firstLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function toolError(name: string, code: string, message: string): ToolError {
  return create(ToolErrorSchema, { name, code, message });
}
