import type { Timestamp } from '@bufbuild/protobuf/wkt';
import { computeHunks } from '../contract/hunks.js';
import { langFromPath } from '../contract/lang-from-path.js';
import type { ConversationNode, ToolCallBlock } from '../conversation/types.js';
import { successMeta } from './card-json.js';
import { fileKey, producedPath } from './deliverables.js';
import {
  appliedDiff,
  argumentDiff,
  diffCard,
  numberHunks,
  type DiffCard,
  type DiffHunk,
} from './diff-card.js';
import { displayPath, resolveWorkdir, type PathFacts } from './path-facts.js';

/** One call that changed a file: the diff card the conversation draws for it. */
export interface FileEdit {
  readonly callId: string;
  readonly turn: number;
  readonly tool: string;
  /** Seq of the call's result: edits are ordered by it. */
  readonly seq: number;
  /** When the result was written. */
  readonly time: Timestamp | undefined;
  /** The card's diff; undefined when the call records none (an `insert`, odd metadata). */
  readonly diff: DiffCard | undefined;
  /** The file's text before and after, when the tool recorded them (`meta.diffs`). */
  readonly texts: { readonly oldText: string | null; readonly newText: string } | undefined;
}

/** Every change a session made to one file, as the changes panel lists it. */
export interface FileChange {
  /** The path as the latest call named it. */
  readonly path: string;
  readonly absolutePath: string;
  readonly displayPath: string;
  readonly lang: string;
  /** True when the first edit in the window created the file. */
  readonly created: boolean;
  /** Oldest first. */
  readonly edits: readonly FileEdit[];
  /** Seq of the latest edit's result. */
  readonly lastSeq: number;
  readonly turns: readonly number[];
}

/** The combined change of a file over its edits. */
export interface CombinedDiff {
  /**
   * `net` when the hunks turn the first recorded text into the last one (every edit
   * recorded its texts and each starts where the previous one ended); otherwise
   * `sequence`: every edit's hunks one after another, oldest first.
   */
  readonly kind: 'net' | 'sequence';
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly removed: number;
}

/** Texts past this size are not diffed again on the client: their edits are listed. */
export const combinedDiffMaxChars = 400_000;

/**
 * The files the window's successful top-level mutation calls changed (the calls
 * deliverables count: `write`, `edit`, `str_replace_editor` create/str_replace/insert),
 * grouped by resolved path, the most recently changed file first. Running and failed
 * calls are left out: they changed nothing yet.
 */
export function sessionChanges(nodes: readonly ConversationNode[], facts: PathFacts): FileChange[] {
  const byFile = new Map<string, { path: string; absolutePath: string; edits: FileEdit[] }>();
  for (const node of nodes) {
    if (node.kind !== 'assistant') continue;
    for (const block of node.blocks) {
      if (block.kind !== 'tool-call') continue;
      const edit = fileEdit(block.tool, facts);
      if (edit === undefined) continue;
      const absolutePath = resolveWorkdir(edit.path, facts.cwd);
      const key = fileKey(absolutePath);
      const entry = byFile.get(key) ?? { path: edit.path, absolutePath, edits: [] };
      entry.path = edit.path;
      entry.edits.push(edit.edit);
      byFile.set(key, entry);
    }
  }
  const changes: FileChange[] = [];
  for (const { path, absolutePath, edits } of byFile.values()) {
    edits.sort((a, b) => a.seq - b.seq);
    const first = edits[0]!;
    changes.push({
      path,
      absolutePath,
      displayPath: displayPath(path, facts),
      lang: langFromPath(path),
      created: first.texts ? first.texts.oldText === null : first.diff?.created === true,
      edits,
      lastSeq: edits.at(-1)!.seq,
      turns: [...new Set(edits.map((e) => e.turn))],
    });
  }
  return changes.sort((a, b) => b.lastSeq - a.lastSeq);
}

/**
 * The combined diff of a file: from its first recorded text to its last when the
 * edits chain (see `CombinedDiff.kind`), else the edits' hunks in order.
 */
export function combinedDiff(change: FileChange): CombinedDiff {
  const net = netTexts(change.edits);
  const hunks =
    net === undefined
      ? numberHunks(change.edits.flatMap((e) => e.diff?.hunks ?? []).map(rawHunk))
      : numberHunks(computeHunks(net.oldText, net.newText));
  const lines = hunks.flatMap((h) => h.lines);
  return {
    kind: net === undefined ? 'sequence' : 'net',
    hunks,
    added: lines.filter((l) => l.kind === 'added').length,
    removed: lines.filter((l) => l.kind === 'removed').length,
  };
}

function fileEdit(
  tool: ToolCallBlock,
  facts: PathFacts,
): { path: string; edit: FileEdit } | undefined {
  const path = producedPath(tool);
  const seq = tool.result?.seq;
  if (path === undefined || seq === undefined) return undefined;
  const diff = diffCard(tool, facts) ?? argumentDiff(tool, facts);
  const applied =
    tool.name === 'str_replace_editor' ? undefined : appliedDiff(successMeta(tool), path);
  const texts = applied && { oldText: applied.oldText, newText: applied.newText };
  return {
    path,
    edit: {
      callId: tool.callId,
      turn: tool.turn,
      tool: tool.name,
      seq,
      time: tool.endTime,
      diff,
      texts,
    },
  };
}

function netTexts(edits: readonly FileEdit[]): { oldText: string; newText: string } | undefined {
  let oldText: string | undefined;
  let current: string | undefined;
  for (const { texts } of edits) {
    if (texts === undefined) return undefined;
    if (current !== undefined && texts.oldText !== current) return undefined;
    if (texts.newText.length > combinedDiffMaxChars) return undefined;
    oldText ??= texts.oldText ?? '';
    current = texts.newText;
  }
  if (oldText === undefined || current === undefined) return undefined;
  return oldText.length > combinedDiffMaxChars ? undefined : { oldText, newText: current };
}

function rawHunk(hunk: DiffHunk): {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
} {
  const sign = { added: '+', removed: '-', context: ' ' } as const;
  return { ...hunk, lines: hunk.lines.map((l) => sign[l.kind] + l.text) };
}
