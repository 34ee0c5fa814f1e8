import { isAbsolute } from 'node:path';
import { searchTruncationHint, type MatchesMeta } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { displayPath } from './display-path.js';
import { runOnWorker } from './run-on-worker.js';
import { isDirectory, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `grep`. */
export interface GrepArgs {
  pattern: string;
  path?: string;
  glob?: string;
  ignore_case?: boolean;
  max_results?: number;
}

/**
 * Listed matching lines by default; files over `maxFileBytes` are skipped; long lines are
 * clipped; a search running past `timeoutMs` is stopped.
 */
export const grepLimits = {
  defaultResults: 200,
  maxFileBytes: 10_000_000,
  maxLineChars: 500,
  timeoutMs: 60_000,
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
 * lists `path:line:text` and records the matches grouped by file. The listing and the
 * matching run on a worker thread that is terminated at the time limit.
 */
export function createGrepTool(
  timeoutMs: number = grepLimits.timeoutMs,
): Tool<GrepArgs, MatchesMeta> {
  return {
    name: 'grep',
    description:
      'Searches file contents with a regular expression (respects .gitignore) and lists matching lines.',
    ...toolSchema<GrepArgs>(schema, (args) => {
      try {
        // Compiling (not running) the pattern only checks its syntax.
        new RegExp(args.pattern, args.ignore_case ? 'i' : '');
      } catch (error) {
        return `pattern is not a valid regular expression: ${(error as Error).message}`;
      }
      return args.glob === undefined ? undefined : globProblem(args.glob, 'glob');
    }),
    async execute(args, ctx) {
      const root = resolveToolPath(ctx.cwd, args.path ?? '.');
      const found = await runOnWorker(
        {
          kind: 'grep',
          root,
          isDirectory: await isDirectory(root),
          glob: args.glob,
          pattern: args.pattern,
          flags: args.ignore_case ? 'i' : '',
          limit: args.max_results ?? grepLimits.defaultResults,
          maxFileBytes: grepLimits.maxFileBytes,
          maxLineChars: grepLimits.maxLineChars,
        },
        {
          timeoutMs,
          signal: ctx.signal,
          what: 'grep',
          failureCode: 'search_failed',
          hint: 'a simpler pattern (nested quantifiers such as (a+)+ backtrack without end) or a narrower path or glob finishes sooner',
        },
      );
      const meta: MatchesMeta = {
        shape: 'matches',
        files: found.files.map((file) => ({
          path: displayPath(ctx.cwd, file.path),
          matches: file.matches,
        })),
        truncated: false,
        total: found.total,
      };
      const listed = meta.files.reduce((n, file) => n + file.matches.length, 0);
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
}

/** `grep` with its default time limit. */
export const grepTool = createGrepTool();

/**
 * Why a glob may not be used: absolute, or climbing out of the searched folder with `..`
 * (the folder goes in `path`, where the approval policy sees it). `undefined` when fine.
 */
export function globProblem(glob: string, name: string): string | undefined {
  if (isAbsolute(glob)) return `${name} must be relative; put the folder in path`;
  if (glob.split(/[\\/]/).includes('..')) {
    return `${name} must not climb out of the folder with ".."; put the folder in path`;
  }
  return undefined;
}
