import { searchTruncationHint, type PathsMeta } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import { displayPath } from './display-path.js';
import { globProblem } from './grep-tool.js';
import { runOnWorker } from './run-on-worker.js';
import { isDirectory, resolveToolPath } from './text-file.js';
import type { Tool } from './tool.js';

/** Arguments of `glob`. */
export interface GlobArgs {
  pattern: string;
  path?: string;
}

/** Most paths listed by `glob`. */
export const globLimit = 1000;

/** A listing running past this is stopped (a pattern like `{a,b}{a,b}...` expands without end). */
export const globTimeoutMs = 60_000;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    pattern: {
      type: 'string',
      minLength: 1,
      description: 'Glob relative to path, e.g. "**/*.ts".',
    },
    path: { type: 'string', description: 'Folder to search (default: the session cwd).' },
  },
  required: ['pattern'],
  additionalProperties: false,
};

/**
 * `glob`: lists files matching a glob pattern, sorted, respecting `.gitignore`, on a worker
 * thread that is terminated at the time limit.
 */
export function createGlobTool(timeoutMs: number = globTimeoutMs): Tool<GlobArgs, PathsMeta> {
  return {
    name: 'glob',
    description: 'Lists files matching a glob pattern such as "src/**/*.ts" (respects .gitignore).',
    ...toolSchema<GlobArgs>(schema, (args) => globProblem(args.pattern, 'pattern')),
    async execute(args, ctx) {
      const root = resolveToolPath(ctx.cwd, args.path ?? '.');
      if (!(await isDirectory(root)))
        throw new ToolFailure('not_a_directory', `${root} is not a directory`);
      const found = await runOnWorker(
        { kind: 'glob', root, pattern: args.pattern },
        {
          timeoutMs,
          signal: ctx.signal,
          what: 'glob',
          failureCode: 'search_failed',
          hint: 'a pattern with fewer {a,b} alternatives or a narrower path finishes sooner',
        },
      );
      const all = found.paths.map((p) => displayPath(ctx.cwd, p));
      const paths = all.slice(0, globLimit);
      const meta: PathsMeta = {
        shape: 'paths',
        paths,
        truncated: all.length > paths.length,
        total: all.length,
      };
      if (all.length === 0) {
        return {
          content: `No files match ${args.pattern} in ${displayPath(ctx.cwd, root)}`,
          isError: false,
          value: meta,
        };
      }
      const rows = [...paths];
      if (meta.truncated) rows.push(searchTruncationHint(paths.length, all.length));
      return { content: rows.join('\n'), isError: false, value: meta };
    },
    presentationMeta: (_args, meta) => meta,
  };
}

/** `glob` with its default time limit. */
export const globTool = createGlobTool();
