import type { MatchesMeta, PathsMeta } from '@dsh/card-models/contract';
import { isRecord, numberOf, stringOf } from '../json-fields.js';

/** `glob` meta from Claude Code's `Glob` result (`filenames`, `numFiles`, `truncated`). */
export function globMeta(toolUseResult: unknown): PathsMeta | undefined {
  if (!isRecord(toolUseResult) || !Array.isArray(toolUseResult.filenames)) return undefined;
  const paths = toolUseResult.filenames.filter(
    (p: unknown): p is string => typeof p === 'string' && p !== '',
  );
  if (paths.length !== toolUseResult.filenames.length) return undefined;
  const total = Math.max(numberOf(toolUseResult, 'numFiles') ?? 0, paths.length);
  return { shape: 'paths', paths, truncated: toolUseResult.truncated === true, total };
}

const withPath = /^(.+?):(\d+):(.*)$/;
const withoutPath = /^(\d+):(.*)$/;

/**
 * `grep` meta from a content-mode `Grep` result: its `path:line:text` rows grouped by
 * file (`line:text` rows belong to `searchPath`, a single searched file). Context rows
 * and separators are not matches. Other modes, and content without a single parsable
 * row, give `undefined` (the Generic card) rather than a wrong listing.
 */
export function grepMeta(
  toolUseResult: unknown,
  searchPath: string | undefined,
): MatchesMeta | undefined {
  if (!isRecord(toolUseResult) || toolUseResult.mode !== 'content') return undefined;
  const content = stringOf(toolUseResult, 'content');
  if (content === undefined) return undefined;
  const files: MatchesMeta['files'] = [];
  const byPath = new Map<string, MatchesMeta['files'][number]>();
  let total = 0;
  for (const row of content.split('\n')) {
    const match = parseRow(row, searchPath);
    if (match === undefined) continue;
    let file = byPath.get(match.path);
    if (file === undefined) {
      file = { path: match.path, matches: [] };
      byPath.set(match.path, file);
      files.push(file);
    }
    file.matches.push({ lineNumber: match.lineNumber, line: match.line });
    total += 1;
  }
  if (total === 0 && content.trim() !== '') return undefined;
  const truncated = numberOf(toolUseResult, 'appliedLimit') !== undefined;
  return { shape: 'matches', files, truncated, total };
}

function parseRow(
  row: string,
  searchPath: string | undefined,
): { path: string; lineNumber: number; line: string } | undefined {
  const full = withPath.exec(row);
  if (full && Number(full[2]) > 0) {
    return { path: full[1] ?? '', lineNumber: Number(full[2]), line: full[3] ?? '' };
  }
  const bare = withoutPath.exec(row);
  if (bare && searchPath !== undefined && searchPath !== '' && Number(bare[1]) > 0) {
    return { path: searchPath, lineNumber: Number(bare[1]), line: bare[2] ?? '' };
  }
  return undefined;
}
