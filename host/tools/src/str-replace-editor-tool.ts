import { readdir, writeFile, mkdir } from 'node:fs/promises';
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { invalidArguments, toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { countOccurrences } from './edit-tool.js';
import { pathProperty, readTextFile, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `str_replace_editor`. */
export interface StrReplaceEditorArgs {
  command: 'view' | 'create' | 'str_replace' | 'insert';
  path: string;
  file_text?: string;
  old_str?: string;
  new_str?: string;
  insert_line?: number;
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    command: { type: 'string', enum: ['view', 'create', 'str_replace', 'insert'] },
    path: pathProperty('File or folder'),
    file_text: { type: 'string', description: 'create: the new file content.' },
    old_str: {
      type: 'string',
      minLength: 1,
      description: 'str_replace: exact unique text to replace.',
    },
    new_str: { type: 'string', description: 'str_replace: replacement; insert: text to insert.' },
    insert_line: {
      type: 'integer',
      minimum: 0,
      description: 'insert: insert after this line (0 = top).',
    },
  },
  required: ['command', 'path'],
  additionalProperties: false,
};

const needs: Record<StrReplaceEditorArgs['command'], (keyof StrReplaceEditorArgs)[]> = {
  view: [],
  create: ['file_text'],
  str_replace: ['old_str'],
  insert: ['insert_line', 'new_str'],
};

/** `str_replace_editor`: view, create, replace in or insert into files; text results only. */
export const strReplaceEditorTool: Tool<StrReplaceEditorArgs> = {
  name: 'str_replace_editor',
  description:
    'Views a file or folder, creates a new file, replaces a unique string, or inserts text after a line.',
  ...toolSchema<StrReplaceEditorArgs>(schema, (args) => {
    const missing = needs[args.command].filter((key) => args[key] === undefined);
    return missing.length === 0 ? undefined : `${args.command} needs ${missing.join(' and ')}`;
  }),
  async execute(args, ctx) {
    const path = resolveToolPath(ctx.cwd, args.path);
    switch (args.command) {
      case 'view':
        return { content: await view(path), isError: false };
      case 'create': {
        if (existsSync(path)) {
          throw new ToolFailure(
            'already_exists',
            `${path} already exists; use str_replace or insert to change it`,
          );
        }
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, args.file_text ?? '', 'utf8');
        return { content: `File created successfully at: ${path}`, isError: false };
      }
      case 'str_replace': {
        const text = await readTextFile(path);
        const oldStr = args.old_str ?? '';
        const count = countOccurrences(text, oldStr);
        if (count === 0)
          throw new ToolFailure('no_match', `old_str was not found verbatim in ${path}`);
        if (count > 1) {
          throw new ToolFailure(
            'ambiguous',
            `old_str occurs ${count} times in ${path}; include more context to make it unique`,
          );
        }
        const at = text.indexOf(oldStr);
        const newText = text.slice(0, at) + (args.new_str ?? '') + text.slice(at + oldStr.length);
        await writeFile(path, newText, 'utf8');
        const line = text.slice(0, at).split('\n').length;
        return {
          content: `The file ${path} has been edited.\n${snippet(newText, line, args.new_str ?? '')}`,
          isError: false,
        };
      }
      case 'insert': {
        const text = await readTextFile(path);
        const lines = text.split('\n');
        const after = args.insert_line ?? 0;
        const total = text.endsWith('\n') ? lines.length - 1 : lines.length;
        if (after > total) {
          throw invalidArguments(
            `insert_line ${after} is past the end of ${path} (${total} lines)`,
          );
        }
        const inserted = (args.new_str ?? '').split('\n');
        const newText = [...lines.slice(0, after), ...inserted, ...lines.slice(after)].join('\n');
        await writeFile(path, newText, 'utf8');
        return {
          content: `The file ${path} has been edited.\n${snippet(newText, after + 1, args.new_str ?? '')}`,
          isError: false,
        };
      }
    }
  },
};

async function view(path: string): Promise<string> {
  if (!existsSync(path)) throw new ToolFailure('not_found', `${path} does not exist`);
  if (!statSync(path).isDirectory()) {
    const text = await readTextFile(path);
    const lines = (text.endsWith('\n') ? text.slice(0, -1) : text).split('\n');
    return lines.map((line, i) => `${String(i + 1).padStart(6)}\t${line}`).join('\n');
  }
  const entries: string[] = [];
  for (const entry of await readdir(path, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue;
    entries.push(entry.isDirectory() ? `${entry.name}/` : entry.name);
    if (!entry.isDirectory()) continue;
    for (const child of await readdir(join(path, entry.name), { withFileTypes: true })) {
      if (child.name.startsWith('.')) continue;
      const rel = relative(path, join(path, entry.name, child.name));
      entries.push(child.isDirectory() ? `${rel}/` : rel);
    }
  }
  return `Files and folders up to 2 levels deep in ${path}, excluding hidden items:\n${entries.sort().join('\n')}`;
}

/** Numbered lines around an edit: four lines of context either side of the changed lines. */
function snippet(text: string, firstLine: number, inserted: string): string {
  const lines = text.split('\n');
  const start = Math.max(1, firstLine - 4);
  const end = Math.min(lines.length, firstLine + inserted.split('\n').length - 1 + 4);
  const shown = lines
    .slice(start - 1, end)
    .map((line, i) => `${String(start + i).padStart(6)}\t${line}`);
  return `Lines ${start}-${end} now read:\n${shown.join('\n')}`;
}
