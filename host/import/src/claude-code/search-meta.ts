import { posix } from 'node:path';
import type { CountsMeta, MatchesMeta, PathsMeta } from '@dsh/card-models/contract';
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
  if (total === 0 && content.trim() !== '' && !/^No matches found$/.test(content.trim())) {
    return undefined;
  }
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

/**
 * `grep` meta of Claude Code's other `Grep` modes: `files_with_matches` lists its
 * `filenames` as paths; `count` parses its `path:N` rows into counts. Other modes give
 * `undefined`.
 */
export function grepListingMeta(toolUseResult: unknown): PathsMeta | CountsMeta | undefined {
  if (!isRecord(toolUseResult)) return undefined;
  const truncated = numberOf(toolUseResult, 'appliedLimit') !== undefined;
  if (toolUseResult.mode === 'files_with_matches') {
    const paths = globMeta(toolUseResult);
    return paths === undefined ? undefined : { ...paths, truncated: paths.truncated || truncated };
  }
  if (toolUseResult.mode !== 'count') return undefined;
  const content = stringOf(toolUseResult, 'content') ?? '';
  const files: CountsMeta['files'] = [];
  for (const row of content.split('\n')) {
    const cut = row.lastIndexOf(':');
    const count = cut > 0 ? row.slice(cut + 1) : '';
    if (!/^\d+$/.test(count)) continue;
    files.push({ path: row.slice(0, cut), count: Number(count) });
  }
  if (files.length === 0 && content.trim() !== '') return undefined;
  const total = numberOf(toolUseResult, 'numMatches') ?? files.reduce((sum, f) => sum + f.count, 0);
  return { shape: 'counts', files, truncated, total };
}

/**
 * `LS` meta: the paths of Claude Code's indented listing (`- /root/`, then `  - name`
 * per level, directories ending in `/`), resolved against the listing's root. The
 * trailing note is not a path. Text that is not such a listing gives `undefined`.
 */
export function lsMeta(text: string): PathsMeta | undefined {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const row of text.split('\n')) {
    const match = /^( *)- (.+)$/.exec(row);
    if (!match) continue;
    const depth = (match[1] ?? '').length / 2;
    const name = match[2] ?? '';
    if (
      !Number.isInteger(depth) ||
      depth > stack.length ||
      (depth === 0 && !name.startsWith('/'))
    ) {
      return undefined;
    }
    stack.length = depth;
    const parent = stack.at(-1);
    const path = parent === undefined ? name : posix.normalize(posix.join(parent, name));
    stack.push(path);
    if (depth > 0 && !name.startsWith('..'))
      paths.push(name.endsWith('/') && !path.endsWith('/') ? `${path}/` : path);
  }
  if (stack.length === 0) return undefined;
  return { shape: 'paths', paths, truncated: false, total: paths.length };
}

const noFiles = /^No files found$/;
const globTruncated = /^\(Results are truncated[^)]*\)$/;

/**
 * `glob` meta from a `Glob` result's text alone (one path per line, `No files found`,
 * a truncation note), for transcripts without `toolUseResult`.
 */
export function globFromText(text: string): PathsMeta | undefined {
  const rows = text
    .split('\n')
    .map((row) => row.trim())
    .filter((row) => row !== '');
  const truncated = rows.some((row) => globTruncated.test(row));
  const paths = rows.filter((row) => !noFiles.test(row) && !globTruncated.test(row));
  if (paths.some((path) => !path.startsWith('/') && !/^[A-Za-z]:[\\/]/.test(path)))
    return undefined;
  return { shape: 'paths', paths, truncated, total: paths.length };
}

/**
 * `grep` meta from a `Grep` result's text alone, by the call's output mode (Claude Code
 * lists files by default): `Found N files` then paths, `path:N` counts, or content rows.
 */
export function grepFromText(
  text: string,
  mode: string | undefined,
  searchPath: string | undefined,
): MatchesMeta | PathsMeta | CountsMeta | undefined {
  const trimmed = text.trim();
  if (mode === 'content') {
    if (/^No matches found$/.test(trimmed))
      return { shape: 'matches', files: [], truncated: false, total: 0 };
    return grepMeta({ mode: 'content', content: text }, searchPath);
  }
  if (mode === 'count') return grepListingMeta({ mode: 'count', content: text });
  const rows = trimmed
    .split('\n')
    .map((row) => row.trim())
    .filter((row) => row !== '');
  if (rows.length === 1 && /^No files found$/.test(rows[0]!)) {
    return { shape: 'paths', paths: [], truncated: false, total: 0 };
  }
  const head = /^Found (\d+) files?/.exec(rows[0] ?? '');
  if (!head) return undefined;
  const paths = rows.slice(1);
  return {
    shape: 'paths',
    paths,
    truncated: Number(head[1]) > paths.length,
    total: Math.max(Number(head[1]), paths.length),
  };
}
