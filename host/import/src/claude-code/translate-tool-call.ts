import { isRecord, type JsonRecord } from '../json-fields.js';

/** A Claude Code tool call in dsh terms: the first-party name and argument JSON text. */
export interface TranslatedCall {
  readonly name: string;
  readonly arguments: string;
}

/** Argument renames per Claude Code tool; fields not listed keep their names. */
interface ToolMapping {
  readonly name: string;
  readonly rename?: Readonly<Record<string, string>>;
}

/**
 * Claude Code tools whose meaning matches a dsh first-party tool (SPEC section 5);
 * `MultiEdit` is an `edit` whose replacements come as an `edits` list. Any other tool
 * keeps its own name and arguments: card-models knows the imported ones (`LS`, `Task`,
 * `BashOutput`...) and gives the rest the Generic card.
 */
export const claudeToolMappings: Readonly<Record<string, ToolMapping>> = {
  Bash: { name: 'bash', rename: { timeout: 'timeout_ms', run_in_background: 'background' } },
  Read: { name: 'read' },
  Write: { name: 'write' },
  Edit: { name: 'edit' },
  MultiEdit: { name: 'edit' },
  Grep: { name: 'grep', rename: { '-i': 'ignore_case', head_limit: 'max_results' } },
  Glob: { name: 'glob' },
  TodoWrite: { name: 'todo_write' },
  WebFetch: { name: 'web_fetch' },
  WebSearch: { name: 'web_search' },
  AskUserQuestion: { name: 'ask_user' },
  Skill: { name: 'skill', rename: { skill: 'name' } },
};

/**
 * Translates a `tool_use` block into a dsh tool call: the first-party name where the
 * meaning matches, with argument names of the dsh contract; input that is not a JSON
 * object is written as it is under the tool's own name.
 */
export function translateToolCall(name: string, input: unknown): TranslatedCall {
  const mapping = Object.hasOwn(claudeToolMappings, name) ? claudeToolMappings[name] : undefined;
  if (mapping === undefined || !isRecord(input)) {
    return { name, arguments: JSON.stringify(input ?? {}) };
  }
  const renamed: JsonRecord = {};
  for (const [key, value] of Object.entries(input)) {
    const target = mapping.rename !== undefined && Object.hasOwn(mapping.rename, key);
    renamed[target ? mapping.rename![key]! : key] = value;
  }
  return { name: mapping.name, arguments: JSON.stringify(renamed) };
}
