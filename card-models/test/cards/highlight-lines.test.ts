import { describe, expect, it } from 'vitest';
import { highlightLines } from '../../src/cards/highlight-lines.js';
import type { HighlightToken } from '../../src/cards/highlight-tokens.js';

const show = (lines: HighlightToken[][]) =>
  lines.map((tokens) => tokens.map((t) => (t.scope ? `[${t.scope}:${t.text}]` : t.text)).join(''));

describe('highlightLines()', () => {
  it.each([
    {
      lang: 'typescript',
      lines: ['const s = "a<&>b";', 'function f() {}'],
      want: ['[keyword:const] s = [string:"a<&>b"];', '[keyword:function] [title.function:f]() {}'],
    },
    {
      lang: 'typescript',
      lines: ['/* one', '   two */ let x = 1;'],
      want: ['[comment:/* one]', '[comment:   two */] [keyword:let] x = [number:1];'],
    },
    {
      lang: 'python',
      lines: ['', 'def g():', '    return None'],
      want: ['', '[keyword:def] [title.function:g]():', '    [keyword:return] [literal:None]'],
    },
    { lang: '', lines: ['const a = 1;'], want: ['const a = 1;'] },
    { lang: 'no-such-language', lines: ['x', ''], want: ['x', ''] },
    { lang: 'json', lines: [], want: [] },
  ])('$lang: $lines', ({ lang, lines, want }) => {
    const tokens = highlightLines(lines, lang);
    expect(show(tokens)).toEqual(want);
    expect(tokens.map((line) => line.map((t) => t.text).join(''))).toEqual(lines);
  });

  it('gives embedded languages the scopes of their own tokens', () => {
    const lines = ['<style>a { color: red; }</style>'];
    const tokens = highlightLines(lines, 'xml');
    expect(tokens.map((line) => line.map((t) => t.text).join(''))).toEqual(lines);
    expect(tokens[0]?.some((t) => t.scope === 'selector-tag')).toBe(true);
  });
});
