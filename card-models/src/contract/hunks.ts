import { structuredPatch } from 'diff';

/**
 * One contextual hunk of an applied change, as tools record it in `meta.diffs` and
 * diff cards draw it. `lines` start with ' ' (context), '-' (removed) or '+' (added).
 */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** One file's change in `meta.diffs` of `write` and `edit`. */
export interface FileDiff {
  path: string;
  /** The file's text before the change; `null` when the call created the file. */
  oldText: string | null;
  newText: string;
  hunks: Hunk[];
}

/** Lines of context around each change in recorded hunks. */
export const hunkContext = 3;

/** Computes the contextual hunks that turn `oldText` into `newText`. */
export function computeHunks(oldText: string, newText: string, context = hunkContext): Hunk[] {
  const patch = structuredPatch('a', 'b', oldText, newText, '', '', { context });
  return patch.hunks.map((h) => ({
    oldStart: h.oldStart,
    oldLines: h.oldLines,
    newStart: h.newStart,
    newLines: h.newLines,
    lines: h.lines.filter((line) => !line.startsWith('\\')),
  }));
}

/** Checks that untrusted JSON is a hunk; card models use it before drawing. */
export function isHunk(value: unknown): value is Hunk {
  if (typeof value !== 'object' || value === null) return false;
  const h = value as Record<string, unknown>;
  return (
    Number.isInteger(h.oldStart) &&
    Number.isInteger(h.oldLines) &&
    Number.isInteger(h.newStart) &&
    Number.isInteger(h.newLines) &&
    Array.isArray(h.lines) &&
    h.lines.every((line) => typeof line === 'string' && /^[ +-]/.test(line))
  );
}
