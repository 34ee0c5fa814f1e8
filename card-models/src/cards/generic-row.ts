import type { ContentBlock } from '@dsh/gen/content';
import type { ToolCallBlock } from '../conversation/types.js';
import { parseJsonObject, type JsonObject } from './card-json.js';
import type { GenericRow, RowKind } from './card-types.js';
import { importedTool, mcpToolName } from './imported-tools.js';
import { displayPath, resolveWorkdir, type PathFacts } from './path-facts.js';

/** Longest summary in characters (code points) before it is cut with an ellipsis. */
export const summaryMaxLength = 120;

const titles: Readonly<Record<string, readonly [RowKind, string]>> = {
  bash: ['bash', 'Bash'],
  pwsh: ['bash', 'PowerShell'],
  terminal_send: ['bash', 'Terminal'],
  read: ['read', 'Read'],
  write: ['write', 'Write'],
  edit: ['edit', 'Edit'],
  grep: ['search', 'Grep'],
  glob: ['search', 'Glob'],
  web_search: ['search', 'Web search'],
  web_fetch: ['read', 'Fetch'],
  todo_write: ['other', 'Todos'],
  ask_user: ['other', 'Question'],
  skill: ['other', 'Skill'],
  run_code: ['code', 'Code'],
};

const editorCommands: Readonly<Record<string, readonly [RowKind, string]>> = {
  view: ['read', 'View'],
  create: ['write', 'Create'],
  str_replace: ['edit', 'Edit'],
  insert: ['edit', 'Insert'],
};

function classify(name: string, args: JsonObject | undefined): readonly [RowKind, string] {
  if (name === 'str_replace_editor') {
    const command = args?.command;
    const known = typeof command === 'string' ? editorCommands[command] : undefined;
    return known ?? ['edit', 'Editor'];
  }
  if (Object.hasOwn(titles, name)) return titles[name] ?? ['other', name];
  const imported = importedTool(name);
  if (imported !== undefined) return [imported.kind, imported.title];
  const mcp = mcpToolName(name);
  return mcp === undefined ? ['other', name] : ['other', `${mcp.server} · ${mcp.tool}`];
}

/** Cuts text to its first line and `summaryMaxLength` code points, marking cuts with '…'. */
export function oneLine(text: string): string {
  const trimmed = text.trim();
  const newline = trimmed.search(/[\r\n]/);
  const first = newline < 0 ? trimmed : trimmed.slice(0, newline).trimEnd();
  const chars = Array.from(first);
  if (chars.length > summaryMaxLength) return `${chars.slice(0, summaryMaxLength - 1).join('')}…`;
  return newline < 0 ? first : `${first} …`;
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

function argPath(args: JsonObject): string | undefined {
  return nonEmptyString(args.file_path) ?? nonEmptyString(args.path);
}

/**
 * The summary line. `str_replace_editor`'s `command` names its operation (already the
 * title), not a command line, so its summary starts from the path.
 */
function summarize(name: string, args: JsonObject, facts: PathFacts): string {
  const path = argPath(args);
  const queries = Array.isArray(args.queries)
    ? args.queries.filter((q): q is string => typeof q === 'string' && q !== '').join(', ')
    : undefined;
  const firstString = Object.values(args).find((value) => nonEmptyString(value) !== undefined);
  const text =
    nonEmptyString(args.description) ??
    (name === 'str_replace_editor' ? undefined : nonEmptyString(args.command)) ??
    (path === undefined ? undefined : displayPath(path, facts)) ??
    nonEmptyString(args.pattern) ??
    nonEmptyString(queries) ??
    nonEmptyString(args.query) ??
    nonEmptyString(args.url) ??
    (typeof firstString === 'string' ? firstString : '');
  return oneLine(text);
}

/** Arguments as pretty JSON when they parse, the raw text otherwise. */
function prettyArgs(argsRaw: string): string {
  if (argsRaw.trim() === '') return '';
  try {
    return JSON.stringify(JSON.parse(argsRaw), null, 2);
  } catch {
    return argsRaw;
  }
}

/** Result content as one text: text blocks verbatim, other blocks as a short placeholder. */
export function flattenContent(content: readonly ContentBlock[]): string {
  const parts: string[] = [];
  for (const block of content) {
    const b = block.block;
    switch (b.case) {
      case 'text':
      case 'reasoning':
        parts.push(b.value.text);
        break;
      case 'image':
        parts.push(`[image: ${b.value.mediaType || 'unknown type'}, ${b.value.data.length} bytes]`);
        break;
      case 'toolCall':
        parts.push(`[tool call: ${b.value.name}]`);
        break;
      case undefined:
        break;
      default: {
        const never: never = b;
        void never;
      }
    }
  }
  return parts.join('\n');
}

/**
 * The generic row of any tool call: classification, title, one-line summary, paths,
 * pretty arguments, flattened result and error text. Total on untrusted input.
 */
export function genericRow(block: ToolCallBlock, facts: PathFacts): GenericRow {
  const orphan = block.call === null;
  const args = orphan ? undefined : parseJsonObject(block.argsRaw);
  const [kind, title] = orphan ? (['other', block.callId] as const) : classify(block.name, args);
  const rawPath = args ? argPath(args) : undefined;
  const result = block.result;
  const resultText = result ? flattenContent(result.content) : '';
  const error = result?.error;
  const errorMessage = error ? error.message || error.code || error.name : '';
  const errorText = errorMessage || (result?.isError ? oneLine(resultText) || 'Error' : '');
  return {
    callId: block.callId,
    tool: block.name,
    kind,
    title: title === '' ? block.callId : title,
    summary: args ? summarize(block.name, args, facts) : '',
    path: rawPath === undefined ? undefined : resolveWorkdir(rawPath, facts.cwd),
    displayPath: rawPath === undefined ? undefined : displayPath(rawPath, facts),
    argsText: prettyArgs(block.argsRaw),
    resultText,
    errorText,
    errorCode: error?.code ?? '',
    state: block.status,
    orphan,
    nested: block.parentCallId !== undefined,
  };
}
