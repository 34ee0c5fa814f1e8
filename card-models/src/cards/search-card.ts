import { parseSearchTruncationHint } from '../contract/markers.js';
import type { ToolCallBlock } from '../conversation/types.js';
import {
  isCount,
  isObject,
  resultText,
  stringField,
  successMeta,
  topLevelArgs,
  type JsonObject,
} from './card-json.js';
import { displayPath, type PathFacts } from './path-facts.js';
import { previewLines } from './preview-lines.js';

/** One matching line of a grep result. */
export interface SearchMatch {
  readonly lineNumber: number;
  readonly line: string;
}

/** The matches of one file. */
export interface SearchFile {
  readonly path: string;
  readonly displayPath: string;
  readonly matches: readonly SearchMatch[];
}

/** One drawn row of a search card: a file (grep heading or glob path) or a match under it. */
export type SearchRow =
  | {
      readonly kind: 'file';
      readonly path: string;
      /** The path as shown; for a count listing it ends with the file's count: `src/a.ts (3)`. */
      readonly displayPath: string;
      /** Matches in the file, for a count listing. */
      readonly count?: number;
    }
  | { readonly kind: 'match'; readonly lineNumber: number; readonly line: string };

/** Props shared by every search card. */
interface SearchCardBase {
  readonly kind: 'search';
  /** `ls` for an imported directory listing (`LS`). */
  readonly tool: 'grep' | 'glob' | 'ls';
  readonly pattern: string;
  /** The directory searched, as given; undefined when the call searched the cwd. */
  readonly searchPath: string | undefined;
  readonly searchDisplayPath: string | undefined;
}

/** Props of a search while it runs: the argument summary only. */
export interface RunningSearchCard extends SearchCardBase {
  readonly state: 'running';
}

/** Props of a settled search: grouped matches (grep) or paths (glob). */
export interface SettledSearchCard extends SearchCardBase {
  readonly state: 'ok';
  readonly shape: 'matches' | 'paths';
  /** Grep matches grouped by file; empty for glob. */
  readonly files: readonly SearchFile[];
  /** Listed paths (glob, a directory listing, grep listing files); empty for grep matches. */
  readonly paths: readonly { readonly path: string; readonly displayPath: string }[];
  /** Matches (grep) or paths (glob) listed. */
  readonly shown: number;
  /** Results found, including those not listed. */
  readonly total: number;
  readonly truncated: boolean;
  /** The recovery hint from the content; only when truncated, undefined when absent. */
  readonly hint: string | undefined;
  /** Every row, for details. */
  readonly rows: readonly SearchRow[];
  /** The first rows, for the conversation. */
  readonly previewRows: readonly SearchRow[];
  readonly hiddenRows: number;
}

/** Props of a search card (SPEC 7.2 "Search"). */
export type SearchCard = RunningSearchCard | SettledSearchCard;

/**
 * The search card of a `grep` or `glob` call (or an imported `LS` listing), or
 * `undefined` for the Generic card: errors, sub-calls, malformed arguments, missing or
 * malformed meta, a shape that is not the tool's. Grep lists matches, or paths (files
 * with matches), or paths with counts; glob and `LS` list paths. An empty result is a
 * valid card. Never throws.
 */
export function searchCard(block: ToolCallBlock, facts: PathFacts): SearchCard | undefined {
  const tool = block.name === 'LS' ? 'ls' : block.name;
  if (tool !== 'grep' && tool !== 'glob' && tool !== 'ls') return undefined;
  const args = topLevelArgs(block);
  if (!args || (args.path !== undefined && typeof args.path !== 'string')) return undefined;
  const listed = tool === 'ls' ? stringField(args, 'path') : undefined;
  const pattern = listed === undefined ? stringField(args, 'pattern') : displayPath(listed, facts);
  if (!pattern) return undefined;
  const searchPath = (tool !== 'ls' && stringField(args, 'path')) || undefined;
  const base: SearchCardBase = {
    kind: 'search',
    tool,
    pattern,
    searchPath,
    searchDisplayPath: searchPath === undefined ? undefined : displayPath(searchPath, facts),
  };
  if (block.status === 'running') return { ...base, state: 'running' };
  const meta = successMeta(block);
  if (!meta || !isCount(meta.total) || typeof meta.truncated !== 'boolean') return undefined;
  const listing =
    tool === 'grep' && meta.shape === 'matches'
      ? grepListing(meta, facts)
      : tool === 'grep' && meta.shape === 'counts'
        ? countListing(meta, facts)
        : globListing(meta, facts);
  if (!listing) return undefined;
  const { preview, hidden } = previewLines(listing.rows);
  const text = meta.truncated ? resultText(block.result?.content ?? []) : '';
  return {
    ...base,
    state: 'ok',
    ...listing,
    total: meta.shape === 'counts' ? listing.shown : meta.total,
    truncated: meta.truncated,
    hint: meta.truncated ? parseSearchTruncationHint(text) : undefined,
    previewRows: preview,
    hiddenRows: hidden,
  };
}

type Listing = Pick<SettledSearchCard, 'shape' | 'files' | 'paths' | 'shown' | 'rows'>;

function grepListing(meta: JsonObject, facts: PathFacts): Listing | undefined {
  if (meta.shape !== 'matches' || !Array.isArray(meta.files)) return undefined;
  const files: SearchFile[] = [];
  const rows: SearchRow[] = [];
  let shown = 0;
  for (const entry of meta.files) {
    const file = isObject(entry) ? searchFile(entry, facts) : undefined;
    if (!file) return undefined;
    files.push(file);
    rows.push({ kind: 'file', path: file.path, displayPath: file.displayPath });
    for (const match of file.matches) rows.push({ kind: 'match', ...match });
    shown += file.matches.length;
  }
  return { shape: 'matches', files, paths: [], shown, rows };
}

function searchFile(entry: JsonObject, facts: PathFacts): SearchFile | undefined {
  const path = stringField(entry, 'path');
  if (!path || !Array.isArray(entry.matches)) return undefined;
  const matches: SearchMatch[] = [];
  for (const match of entry.matches) {
    if (!isObject(match)) return undefined;
    const { lineNumber, line } = match;
    if (!isCount(lineNumber) || lineNumber === 0 || typeof line !== 'string') return undefined;
    matches.push({ lineNumber, line });
  }
  return { path, displayPath: displayPath(path, facts), matches };
}

function globListing(meta: JsonObject, facts: PathFacts): Listing | undefined {
  if (meta.shape !== 'paths' || !Array.isArray(meta.paths)) return undefined;
  if (!meta.paths.every((p): p is string => typeof p === 'string' && p !== '')) return undefined;
  const paths = meta.paths.map((path) => ({ path, displayPath: displayPath(path, facts) }));
  const rows = paths.map((p): SearchRow => ({ kind: 'file', ...p }));
  return { shape: 'paths', files: [], paths, shown: paths.length, rows };
}

/** Grep counts per file: a path listing whose rows show each file's count. */
function countListing(meta: JsonObject, facts: PathFacts): Listing | undefined {
  if (!Array.isArray(meta.files)) return undefined;
  const paths: { path: string; displayPath: string }[] = [];
  const rows: SearchRow[] = [];
  for (const entry of meta.files) {
    const path = isObject(entry) ? stringField(entry, 'path') : undefined;
    const count = isObject(entry) ? entry.count : undefined;
    if (!path || !isCount(count)) return undefined;
    const shown = `${displayPath(path, facts)} (${count})`;
    paths.push({ path, displayPath: shown });
    rows.push({ kind: 'file', path, displayPath: shown, count });
  }
  return { shape: 'paths', files: [], paths, shown: paths.length, rows };
}
