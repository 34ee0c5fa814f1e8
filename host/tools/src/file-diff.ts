import {
  computeHunks,
  hunkContext,
  type DiffMeta,
  type FileDiff,
  type Hunk,
} from '@dsh/card-models/contract';
import { runOnWorker } from './run-on-worker.js';

/** Lines (old and new together) under which a diff runs in place: its worst case is ~1 ms. */
const inlineDiffLines = 400;

/** A diff still running after this is recorded as one hunk that replaces the whole file. */
const diffGiveUpMs = 2000;

/**
 * The recorded change of one file: both texts and the contextual hunks between them.
 * A large diff runs on a tool worker thread (its cost grows with the product of the
 * changed lines); one that takes longer than 2 s is recorded as a single hunk replacing
 * every line, so a regenerated file never holds up the host.
 */
export async function fileDiff(
  path: string,
  oldText: string | null,
  newText: string,
): Promise<FileDiff> {
  return { path, oldText, newText, hunks: await hunksOf(oldText ?? '', newText) };
}

async function hunksOf(oldText: string, newText: string): Promise<Hunk[]> {
  if (lineCount(oldText) + lineCount(newText) <= inlineDiffLines) {
    return computeHunks(oldText, newText);
  }
  try {
    const { hunks } = await runOnWorker(
      { kind: 'hunks', oldText, newText, context: hunkContext, giveUpMs: diffGiveUpMs },
      {
        timeoutMs: diffGiveUpMs + 3000,
        // The file is written by now: a cancel must not turn its record into a failure.
        signal: new AbortController().signal,
        what: 'diffing the file',
        hint: 'the change is recorded as one hunk',
        failureCode: 'internal',
      },
    );
    return hunks ?? wholeFileHunks(oldText, newText);
  } catch {
    return wholeFileHunks(oldText, newText);
  }
}

/** One hunk removing every old line and adding every new one. */
export function wholeFileHunks(oldText: string, newText: string): Hunk[] {
  const before = linesOf(oldText);
  const after = linesOf(newText);
  if (before.length === 0 && after.length === 0) return [];
  return [
    {
      oldStart: before.length === 0 ? 0 : 1,
      oldLines: before.length,
      newStart: after.length === 0 ? 0 : 1,
      newLines: after.length,
      lines: [...before.map((line) => `-${line}`), ...after.map((line) => `+${line}`)],
    },
  ];
}

function linesOf(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (text.endsWith('\n')) lines.pop();
  return lines;
}

/** `presentationMeta` of `write` and `edit`: the applied change as `meta.diffs`. */
export function diffMeta(_args: unknown, diff: FileDiff): DiffMeta {
  return { diffs: [diff] };
}

/** Number of lines in a text, counting a last line without a newline. */
export function lineCount(text: string): number {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}
