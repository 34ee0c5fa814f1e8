import { createReadStream } from 'node:fs';
import { formatReadEnvelope, type ReadEnvelope, type ReadMeta } from '@dsh/card-models/contract';
import { boundedLines, type BoundedLine } from './bounded-lines.js';
import { invalidArguments, toolSchema, type ObjectSchema } from './tool-args.js';
import { langFromPath } from './lang-from-path.js';
import { pathProperty, requireTextFile, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `read`. */
export interface ReadArgs {
  file_path: string;
  offset?: number;
  limit?: number;
}

/** Lines shown when `limit` is not given, and the longest line shown in full. */
export const readLimits = { defaultLines: 2000, maxLineChars: 2000 } as const;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    file_path: pathProperty('The file to read'),
    offset: {
      type: 'integer',
      minimum: 1,
      description: 'First line to show, 1-based (default 1).',
    },
    limit: {
      type: 'integer',
      minimum: 1,
      description: `Number of lines to show (default ${readLimits.defaultLines}).`,
    },
  },
  required: ['file_path'],
  additionalProperties: false,
};

/**
 * `read`: a window of a text file's lines in the fixed read envelope; the metadata
 * says which lines of how many were shown and the language to highlight them in. The
 * file is streamed and only the head of each line is kept, so no file is too big.
 */
export const readTool: Tool<ReadArgs, ReadEnvelope> = {
  name: 'read',
  description: 'Reads a text file and returns numbered lines (up to 2000 unless limit is given).',
  ...toolSchema<ReadArgs>(schema),
  async execute(args, ctx) {
    const path = resolveToolPath(ctx.cwd, args.file_path);
    await requireTextFile(path);
    const offset = args.offset ?? 1;
    const limit = args.limit ?? readLimits.defaultLines;
    const shown: string[] = [];
    let totalLines = 0;
    const stream = createReadStream(path, 'utf8') as AsyncIterable<string>;
    for await (const line of boundedLines(stream, readLimits.maxLineChars + 1)) {
      totalLines++;
      if (totalLines >= offset && shown.length < limit) shown.push(clip(line));
    }
    if (totalLines > 0 && offset > totalLines) {
      throw invalidArguments(`offset ${offset} is past the end of ${path} (${totalLines} lines)`);
    }
    const firstLine = shown.length === 0 ? 0 : offset;
    const envelope: ReadEnvelope = {
      path,
      firstLine,
      lastLine: shown.length === 0 ? 0 : offset + shown.length - 1,
      totalLines,
      lines: shown,
    };
    return { content: formatReadEnvelope(envelope), isError: false, value: envelope };
  },
  presentationMeta(_args, envelope): ReadMeta {
    return {
      path: envelope.path,
      offset: envelope.firstLine,
      lines: envelope.lines.length,
      totalLines: envelope.totalLines,
      lang: langFromPath(envelope.path),
    };
  },
};

function clip(line: BoundedLine): string {
  if (line.length <= readLimits.maxLineChars) return line.head;
  return `${line.head.slice(0, readLimits.maxLineChars)}… [line truncated: ${line.length} characters]`;
}
