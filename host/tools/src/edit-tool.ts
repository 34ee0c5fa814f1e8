import { writeFile } from 'node:fs/promises';
import type { FileDiff } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { diffMeta, fileDiff } from './file-diff.js';
import { pathProperty, readTextFile, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `edit`. */
export interface EditArgs {
  file_path: string;
  old_string: string;
  new_string: string;
  replace_all?: boolean;
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    file_path: pathProperty('The file to edit'),
    old_string: {
      type: 'string',
      minLength: 1,
      description: 'Exact text to replace; must be unique unless replace_all.',
    },
    new_string: { type: 'string', description: 'The replacement text.' },
    replace_all: { type: 'boolean', description: 'Replace every occurrence (default false).' },
  },
  required: ['file_path', 'old_string', 'new_string'],
  additionalProperties: false,
};

/**
 * `edit`: replaces an exact, unique string in a text file (every occurrence with
 * `replace_all`); the metadata records the applied change.
 */
export const editTool: Tool<EditArgs, FileDiff> = {
  name: 'edit',
  description:
    'Replaces old_string with new_string in a file. old_string must match exactly and be unique unless replace_all is true.',
  ...toolSchema<EditArgs>(schema, (args) =>
    args.old_string === args.new_string
      ? 'old_string and new_string are the same; nothing would change'
      : undefined,
  ),
  async execute(args, ctx) {
    const path = resolveToolPath(ctx.cwd, args.file_path);
    const oldText = await readTextFile(path);
    const count = countOccurrences(oldText, args.old_string);
    if (count === 0) {
      throw new ToolFailure(
        'no_match',
        `old_string was not found in ${path}; read the file and copy the text exactly`,
      );
    }
    if (count > 1 && !args.replace_all) {
      throw new ToolFailure(
        'ambiguous',
        `old_string occurs ${count} times in ${path}; add surrounding context to make it unique, or set replace_all`,
      );
    }
    const newText = oldText.split(args.old_string).join(args.new_string);
    await writeFile(path, newText, 'utf8');
    return {
      content: `Edited ${path}: replaced ${count} occurrence${count === 1 ? '' : 's'}`,
      isError: false,
      value: await fileDiff(path, oldText, newText),
    };
  },
  presentationMeta: diffMeta,
};

/** Non-overlapping occurrences of `needle` in `text`. */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length))
    count++;
  return count;
}
