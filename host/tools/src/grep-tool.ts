import { readFile, stat } from 'node:fs/promises';
import {
  errorCodes,
  interruptedMessage,
  searchTruncationHint,
  type MatchesMeta,
} from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { displayPath } from './display-path.js';
import { searchFiles } from './search-files.js';
import { isDirectory, looksBinary, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `grep`. */
export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
  max_results?: number;
}

/** Listed matching lines by default; files over `maxFileBytes` are skipped; long lines are clipped. */
export const grepLimits = {
  defaultResults: 200,
  maxFileBytes: 10_000_000,
  maxLineChars: 500,
} as const;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      description: 'JavaScript regular expression to search for.',
    },
    path: { type: 'string', description: 'File or folder to search (default: the session cwd).' },
    glob: {
      type: 'string',
      minLength: 1,
      description: 'Only search files matching this glob, e.g. "*.ts".',
    },
    ignore_case: { type: 'boolean', description: 'Case-insensitive search.' },
    max_results: {
      type: 'integer',
      minimum: 1,
      maximum: 10_000,
      description: `Most matching lines to list (default ${grepLimits.defaultResults}).`,
    },
  },
  required: ['pattern'],
  additionalProperties: false,
};

/**
 * `grep`: searches text files for a regular expression, respecting `.gitignore`;
 * lists `path:line:text` and records the matches grouped by file.
 */
export const grepTool: Tool<GrepArgs, MatchesMeta> = {
  name: 'grep',
  description:
    'Searches file contents with a regular expression (respects .gitignore) and lists matching lines.',
  ...toolSchema<GrepArgs>(schema, (args) => {
    try {
      new RegExp(args.pattern, args.ignore_case ? 'i' : '');
      return undefined;
    } catch (error) {
      return `pattern is not a valid regular expression: ${(error as Error).message}`;
    }
  }),
  async execute(args, ctx) {
    const root = resolveToolPath(ctx.cwd, args.path ?? '.');
    const regex = new RegExp(args.pattern, args.ignore_case ? 'i' : '');
    const limit = args.max_results ?? grepLimits.defaultResults;
    const files = await filesToSearch(root, args.glob);
    const meta: MatchesMeta = { shape: 'matches', files: [], truncated: false, total: 0 };
    let listed = 0;
    for (let i = 0; i < files.length; i += 64) {
      if (ctx.signal.aborted) throw new ToolFailure(errorCodes.interrupted, interruptedMessage);
      const batch = await Promise.all(files.slice(i, i + 64).map((file) => matchFile(file, regex)));
      batch.forEach((matches, j) => {
        if (matches.length === 0) return;
        meta.total += matches.length;
        const room = limit - listed;
        if (room <= 0) return;
        const shown = matches.slice(0, room);
        listed += shown.length;
        meta.files.push({ path: displayPath(ctx.cwd, files[i + j] ?? ''), matches: shown });
      });
    }
    meta.truncated = meta.total > listed;
    if (meta.total === 0) {
      return {
        content: `No matches for /${args.pattern}/ in ${displayPath(ctx.cwd, root)}`,
        isError: false,
        value: meta,
      };
    }
    const rows = meta.files.flatMap((file) =>
      file.matches.map((m) => `${file.path}:${m.lineNumber}:${m.line}`),
    );
    const head = `Found ${meta.total} matching line${meta.total === 1 ? '' : 's'}`;
    if (meta.truncated) rows.push(searchTruncationHint(listed, meta.total));
    return { content: [head, ...rows].join('\n'), isError: false, value: meta };
  },
  presentationMeta: (_args, meta) => meta,
};

async function filesToSearch(root: string, glob: string | undefined): Promise<string[]> {
  if (!(await isDirectory(root))) return [root];
  return searchFiles(root, { pattern: glob ?? '**/*', baseNameMatch: true });
}

async function matchFile(
  path: string,
  regex: RegExp,
): Promise<{ lineNumber: number; line: string }[]> {
  let bytes: Buffer;
  try {
    if ((await stat(path)).size > grepLimits.maxFileBytes) return [];
    bytes = await readFile(path);
  } catch {
    return [];
  }
  if (looksBinary(bytes)) return [];
  const matches: { lineNumber: number; line: string }[] = [];
  const lines = bytes.toString('utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] ?? '').replace(/\r$/, '');
    if (regex.test(line))
      matches.push({ lineNumber: i + 1, line: line.slice(0, grepLimits.maxLineChars) });
  }
  return matches;
}
