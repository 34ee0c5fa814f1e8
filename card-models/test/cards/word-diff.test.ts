import { wordDiff, wordDiffMaxLineLength, type DiffLine, type WordSpan } from '@dsh/card-models';
import { describe, expect, it } from 'vitest';

/** Rows from "-text", "+text" and " text" strings, in hunk 0 unless a "|" row starts the next. */
function rows(...texts: string[]): DiffLine[] {
  let hunk = 0;
  const out: DiffLine[] = [];
  for (const text of texts) {
    if (text === '|') {
      hunk += 1;
      continue;
    }
    const kind = text[0] === '-' ? 'removed' : text[0] === '+' ? 'added' : 'context';
    out.push({ kind, text: text.slice(1), oldLine: undefined, newLine: undefined, hunk });
  }
  return out;
}

/** Spans as a string: changed words in [brackets]; undefined rows as null. */
function marked(spans: readonly WordSpan[] | undefined): string | null {
  return spans === undefined
    ? null
    : spans.map((span) => (span.changed ? `[${span.text}]` : span.text)).join('');
}

describe('wordDiff()', () => {
  it.each<[string, string[], (string | null)[]]>([
    [
      'one word changed in a pair',
      ['-const port = 8080;', '+const port = 3000;'],
      ['const port = [8080];', 'const port = [3000];'],
    ],
    [
      'context rows and unpaired additions stay whole',
      [' a', '-let x = 1;', '+let x = 2;', '+let y = 3;', ' b'],
      [null, 'let x = [1];', 'let x = [2];', null, null],
    ],
    [
      'pairs the i-th removal with the i-th addition',
      ['-alpha beta', '-gamma delta', '+alpha BETA', '+gamma DELTA'],
      ['alpha [beta]', 'gamma [delta]', 'alpha [BETA]', 'gamma [DELTA]'],
    ],
    [
      'a rewrite that shares too little stays whole',
      ['-return computeTotal(items);', '+throw new Error("no");'],
      [null, null],
    ],
    ['identical text is not marked', ['-same', '+same'], [null, null]],
    ['no pairing across hunks', ['-old line here', '|', '+old line there'], [null, null]],
    ['added words next to kept ones', ['-foo(a)', '+foo(a, b)'], ['foo(a)', 'foo(a[, b])']],
  ])('%s', (_, input, expected) => {
    expect(wordDiff(rows(...input)).map(marked)).toEqual(expected);
  });

  it('leaves lines past the length limit whole', () => {
    const long = 'x '.repeat(wordDiffMaxLineLength);
    expect(wordDiff(rows(`-${long}a`, `+${long}b`)).map(marked)).toEqual([null, null]);
  });

  it('leaves pairs that need many edits whole', () => {
    const words = (n: number, tag: string) =>
      Array.from({ length: n }, (_, i) => (i % 2 === 0 ? `k${i}` : `${tag}${i}`)).join(' ');
    expect(wordDiff(rows(`-${words(400, 'a')}`, `+${words(400, 'b')}`)).map(marked)).toEqual([
      null,
      null,
    ]);
  });

  it('returns the same array for the same rows (memoised)', () => {
    const lines = rows('-a b', '+a c');
    expect(wordDiff(lines)).toBe(wordDiff(lines));
  });
});
