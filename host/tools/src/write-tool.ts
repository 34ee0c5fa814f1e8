import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { FileDiff } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { diffMeta, fileDiff, lineCount } from './file-diff.js';
import { pathProperty, readTextFileIfExists, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `write`. */
export interface WriteArgs {
  file_path: string;
  content: string;
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    file_path: pathProperty('The file to write'),
    content: { type: 'string', description: 'The complete new content of the file.' },
  },
  required: ['file_path', 'content'],
  additionalProperties: false,
};

/**
 * `write`: creates or overwrites a text file (creating missing folders); the metadata
 * records the change with `oldText: null` for a created file.
 */
export const writeTool: Tool<WriteArgs, FileDiff> = {
  name: 'write',
  description: 'Writes a text file, creating it (and its folders) or replacing its whole content.',
  ...toolSchema<WriteArgs>(schema),
  async execute(args, ctx) {
    const path = resolveToolPath(ctx.cwd, args.file_path);
    const oldText = await readTextFileIfExists(path);
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, args.content, 'utf8');
    const verb = oldText === null ? 'Created' : 'Wrote';
    const lines = lineCount(args.content);
    return {
      content: `${verb} ${path} (${lines} line${lines === 1 ? '' : 's'})`,
      isError: false,
      value: await fileDiff(path, oldText, args.content),
    };
  },
  presentationMeta: diffMeta,
};
