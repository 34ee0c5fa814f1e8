import { diffWordsWithSpace } from 'diff';
import type { DiffLine } from './diff-card.js';

/** A piece of a changed line: unchanged text, or the words that changed. */
export interface WordSpan {
  readonly text: string;
  readonly changed: boolean;
}

/** Lines longer than this are not compared word by word (the cost grows with both lengths). */
export const wordDiffMaxLineLength = 1_000;
/** The most word edits a pair may need; a pair needing more is a rewrite, not an edit. */
const maxEdits = 48;
/** A pair is highlighted only when at least this share of the longer line is unchanged. */
const minUnchanged = 0.4;

const cache = new WeakMap<readonly DiffLine[], readonly (readonly WordSpan[] | undefined)[]>();

/**
 * Word-level highlights of a diff's rows, parallel to `lines`: for a removed row paired
 * with an added row (the i-th of a run of removals with the i-th of the additions right
 * after it, in one hunk), the spans of each side with the changed words marked;
 * undefined for every other row, and for pairs that share too little to read as an edit
 * (then the whole row is the change). Bounded: long lines and pairs needing many edits
 * are left whole. Memoised per `lines` array, so clients can call it on every render.
 */
export function wordDiff(lines: readonly DiffLine[]): readonly (readonly WordSpan[] | undefined)[] {
  const known = cache.get(lines);
  if (known !== undefined) return known;
  const out: (readonly WordSpan[] | undefined)[] = lines.map(() => undefined);
  let i = 0;
  while (i < lines.length) {
    const removedFrom = i;
    while (i < lines.length && isRow(lines[i], 'removed', lines[removedFrom])) i += 1;
    const addedFrom = i;
    while (i < lines.length && isRow(lines[i], 'added', lines[removedFrom])) i += 1;
    const pairs = Math.min(addedFrom - removedFrom, i - addedFrom);
    for (let k = 0; k < pairs; k += 1) {
      const spans = pairSpans(lines[removedFrom + k]!.text, lines[addedFrom + k]!.text);
      if (spans === undefined) continue;
      out[removedFrom + k] = spans.removed;
      out[addedFrom + k] = spans.added;
    }
    if (i === removedFrom) i += 1;
  }
  cache.set(lines, out);
  return out;
}

function isRow(
  line: DiffLine | undefined,
  kind: DiffLine['kind'],
  first: DiffLine | undefined,
): boolean {
  return line !== undefined && line.kind === kind && line.hunk === first?.hunk;
}

/** The spans of both sides of one pair, or undefined when it is not worth marking. */
function pairSpans(
  before: string,
  after: string,
): { removed: WordSpan[]; added: WordSpan[] } | undefined {
  if (before === after) return undefined;
  if (before.length > wordDiffMaxLineLength || after.length > wordDiffMaxLineLength)
    return undefined;
  const changes = diffWordsWithSpace(before, after, { maxEditLength: maxEdits });
  if (changes === undefined) return undefined;
  const removed: WordSpan[] = [];
  const added: WordSpan[] = [];
  let same = 0;
  for (const change of changes) {
    if (change.added) push(added, change.value, true);
    else if (change.removed) push(removed, change.value, true);
    else {
      same += change.value.length;
      push(removed, change.value, false);
      push(added, change.value, false);
    }
  }
  if (same < minUnchanged * Math.max(before.length, after.length)) return undefined;
  return { removed, added };
}

/** Appends a span, merging it into the previous one of the same kind. */
function push(spans: WordSpan[], text: string, changed: boolean): void {
  const last = spans.at(-1);
  if (last !== undefined && last.changed === changed)
    spans[spans.length - 1] = { text: last.text + text, changed };
  else spans.push({ text, changed });
}
