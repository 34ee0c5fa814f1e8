import { computeHunks, type DiffMeta, type FileDiff } from '@dsh/card-models/contract';

/** The recorded change of one file: both texts and the contextual hunks between them. */
export function fileDiff(path: string, oldText: string | null, newText: string): FileDiff {
  return { path, oldText, newText, hunks: computeHunks(oldText ?? '', newText) };
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
