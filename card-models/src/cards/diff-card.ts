import { computeHunks, isHunk, type FileDiff, type Hunk } from '../contract/hunks.js';
import { langFromPath } from '../contract/lang-from-path.js';
import type { ToolCallBlock } from '../conversation/types.js';
import { isObject, stringField, successMeta, topLevelArgs, type JsonObject } from './card-json.js';
import { displayPath, type PathFacts } from './path-facts.js';
import { previewLines } from './preview-lines.js';

/** One row of a diff: its text without the +/- prefix and its line numbers. */
export interface DiffLine {
  readonly kind: 'context' | 'added' | 'removed';
  readonly text: string;
  /** Line number in the old text; undefined for added lines. */
  readonly oldLine: number | undefined;
  /** Line number in the new text; undefined for removed lines. */
  readonly newLine: number | undefined;
  /** Index of the hunk the row belongs to: clients draw a separator where it changes. */
  readonly hunk: number;
}

/** One hunk with numbered rows. */
export interface DiffHunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly DiffLine[];
}

/**
 * Props of a diff card: the intended change from the call's arguments while running
 * (or as fallback), the applied hunks from `meta.diffs` once settled.
 */
export interface DiffCard {
  readonly kind: 'diff';
  readonly tool: string;
  readonly state: 'running' | 'ok';
  /** The path as the call or the result named it (for opening the file). */
  readonly path: string;
  readonly displayPath: string;
  /** highlight.js language of the file, from its name (`langFromPath`); '' when unknown. */
  readonly lang: string;
  /** `applied` when the hunks come from the result's meta, else `arguments`. */
  readonly source: 'arguments' | 'applied';
  /** True when the call created the file (`oldText: null`, or `str_replace_editor create`). */
  readonly created: boolean;
  /**
   * True when line numbers are positions in the file; false for an argument diff of a
   * replacement, whose numbers count from the start of the replaced snippet.
   */
  readonly lineNumbersInFile: boolean;
  readonly hunks: readonly DiffHunk[];
  /** Every row of every hunk, for details. */
  readonly lines: readonly DiffLine[];
  /** The first rows, for the conversation. */
  readonly previewLines: readonly DiffLine[];
  /** Rows left out of `previewLines`. */
  readonly hiddenLines: number;
  readonly added: number;
  readonly removed: number;
}

type Change = Pick<DiffCard, 'path' | 'source' | 'created' | 'lineNumbersInFile'> & {
  hunks: readonly Hunk[];
};

/**
 * The diff card of a `write`, `edit` or `str_replace_editor` call, or `undefined` for
 * the Generic card (errors, sub-calls, malformed input; SPEC 7.2 "Diff"). Never throws.
 */
export function diffCard(block: ToolCallBlock, facts: PathFacts): DiffCard | undefined {
  const args = topLevelArgs(block);
  if (!args) return undefined;
  const change =
    block.status === 'running' ? intendedChange(block.name, args) : settled(block, args);
  return change && cardOf(block, change, facts);
}

/**
 * The change a write/edit/str_replace_editor call asks for, from its arguments alone
 * (whatever its status): what the changes panel shows for a call that recorded no
 * applied diff, such as an imported one. `undefined` for malformed arguments.
 */
export function argumentDiff(block: ToolCallBlock, facts: PathFacts): DiffCard | undefined {
  const args = topLevelArgs(block);
  const change = args && intendedChange(block.name, args);
  return change && cardOf(block, change, facts);
}

function cardOf(block: ToolCallBlock, change: Change, facts: PathFacts): DiffCard {
  const hunks = numberHunks(change.hunks);
  const lines = hunks.flatMap((h) => h.lines);
  const { preview, hidden } = previewLines(lines);
  return {
    kind: 'diff',
    tool: block.name,
    state: block.status === 'running' ? 'running' : 'ok',
    path: change.path,
    displayPath: displayPath(change.path, facts),
    lang: langFromPath(change.path),
    source: change.source,
    created: change.created,
    lineNumbersInFile: change.lineNumbersInFile,
    hunks,
    lines,
    previewLines: preview,
    hiddenLines: hidden,
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
  };
}

function settled(block: ToolCallBlock, args: JsonObject): Change | undefined {
  if (block.status !== 'ok' || !block.result || block.result.isError) return undefined;
  if (block.name !== 'write' && block.name !== 'edit') return undefined;
  const intended = intendedChange(block.name, args);
  if (!intended) return undefined;
  const applied = appliedDiff(successMeta(block), intended.path);
  if (block.name === 'edit') return applied && appliedChange(applied);
  if (!applied) return intended;
  if (applied.oldText === null) return { ...intended, created: true };
  return appliedChange(applied);
}

function appliedChange(diff: FileDiff): Change {
  return {
    path: diff.path,
    source: 'applied',
    created: diff.oldText === null,
    lineNumbersInFile: true,
    hunks: diff.hunks,
  };
}

/** The diff a call intends, from its arguments alone. */
function intendedChange(tool: string, args: JsonObject): Change | undefined {
  switch (tool) {
    case 'write':
      return addedOnly(stringField(args, 'file_path'), stringField(args, 'content'), false);
    case 'edit':
      if (args.edits !== undefined) return editList(stringField(args, 'file_path'), args.edits);
      return replacement(
        stringField(args, 'file_path'),
        stringField(args, 'old_string'),
        stringField(args, 'new_string'),
      );
    case 'str_replace_editor':
      return editorChange(args);
    default:
      return undefined;
  }
}

function editorChange(args: JsonObject): Change | undefined {
  const path = stringField(args, 'path');
  switch (stringField(args, 'command')) {
    case 'create':
      return addedOnly(path, stringField(args, 'file_text'), true);
    case 'str_replace':
      // `new_str` may be left out to delete `old_str`.
      if (args.new_str !== undefined && typeof args.new_str !== 'string') return undefined;
      return replacement(path, stringField(args, 'old_str'), stringField(args, 'new_str') ?? '');
    default:
      return undefined;
  }
}

function addedOnly(
  path: string | undefined,
  content: string | undefined,
  created: boolean,
): Change | undefined {
  if (!path || content === undefined) return undefined;
  const hunks = computeHunks('', content);
  return { path, source: 'arguments', created, lineNumbersInFile: true, hunks };
}

function replacement(
  path: string | undefined,
  oldText: string | undefined,
  newText: string | undefined,
): Change | undefined {
  if (!path || oldText === undefined || newText === undefined) return undefined;
  const hunks = computeHunks(oldText, newText);
  return { path, source: 'arguments', created: false, lineNumbersInFile: false, hunks };
}

/**
 * The replacements of an `edit` given as a list (`edits: [{old_string, new_string}]`, as
 * imported multi-edit calls carry them): one replacement's hunks after another.
 */
function editList(path: string | undefined, edits: unknown): Change | undefined {
  if (!path || !Array.isArray(edits) || edits.length === 0) return undefined;
  const hunks: Hunk[] = [];
  for (const edit of edits) {
    if (!isObject(edit)) return undefined;
    const change = replacement(
      path,
      stringField(edit, 'old_string'),
      stringField(edit, 'new_string'),
    );
    if (!change) return undefined;
    hunks.push(...change.hunks);
  }
  return { path, source: 'arguments', created: false, lineNumbersInFile: false, hunks };
}

/**
 * The applied change from `meta.diffs`: the entry for the call's path, else the first.
 * `undefined` when meta is missing, empty or any entry is malformed.
 */
export function appliedDiff(meta: JsonObject | undefined, path: string): FileDiff | undefined {
  const diffs = meta?.diffs;
  if (!Array.isArray(diffs) || diffs.length === 0) return undefined;
  const checked: FileDiff[] = [];
  for (const entry of diffs) {
    const diff = fileDiff(entry);
    if (!diff) return undefined;
    checked.push(diff);
  }
  return checked.find((d) => d.path === path) ?? checked[0];
}

function fileDiff(value: unknown): FileDiff | undefined {
  if (!isObject(value)) return undefined;
  const { path, oldText, newText, hunks } = value;
  if (typeof path !== 'string' || path === '' || typeof newText !== 'string') return undefined;
  if (oldText !== null && typeof oldText !== 'string') return undefined;
  if (!Array.isArray(hunks) || !hunks.every((h) => isHunk(h) && hunkAddsUp(h))) return undefined;
  return { path, oldText, newText, hunks };
}

/** A hunk whose counts match its rows, so its line numbers can be trusted. */
function hunkAddsUp(hunk: Hunk): boolean {
  const old = hunk.lines.filter((l) => !l.startsWith('+')).length;
  const added = hunk.lines.filter((l) => !l.startsWith('-')).length;
  return old === hunk.oldLines && added === hunk.newLines;
}

/** Hunks with the old and new line number of every row. */
export function numberHunks(hunks: readonly Hunk[]): DiffHunk[] {
  return hunks.map((hunk, index) => {
    let oldLine = hunk.oldStart;
    let newLine = hunk.newStart;
    const lines = hunk.lines.map((raw): DiffLine => {
      const text = raw.slice(1);
      if (raw.startsWith('+'))
        return { kind: 'added', text, oldLine: undefined, newLine: newLine++, hunk: index };
      if (raw.startsWith('-'))
        return { kind: 'removed', text, oldLine: oldLine++, newLine: undefined, hunk: index };
      return { kind: 'context', text, oldLine: oldLine++, newLine: newLine++, hunk: index };
    });
    return { ...pick(hunk), lines };
  });
}

function pick(hunk: Hunk): Omit<DiffHunk, 'lines'> {
  const { oldStart, oldLines, newStart, newLines } = hunk;
  return { oldStart, oldLines, newStart, newLines };
}
