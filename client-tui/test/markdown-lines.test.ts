import MarkdownIt from 'markdown-it';
import { describe, expect, it } from 'vitest';
import { markdownAnswer } from '@dsh/fixtures';
import { createMarkdownStream, markdownLines, markdownSegments, plainText } from '../src/index.js';
import { blockLines } from '../src/markdown/block-lines.js';

const plain = (text: string, width = 40) =>
  markdownLines(text, width).map((line) => plainText(line).trimEnd());

describe('markdownLines()', () => {
  it.each([
    ['heading and paragraph', '# Title\n\nSome text.', ['Title', '', 'Some text.']],
    ['emphasis keeps the words', 'a **b** *c* ~~d~~ `e`', ['a b c d e']],
    ['link with its URL', '[docs](https://x.io/d)', ['docs (https://x.io/d)']],
    ['autolink once', '<https://x.io>', ['https://x.io']],
    ['image as text', '![chart](https://x.io/c.png)', ['[image: chart] (https://x.io/c.png)']],
    ['bullets, nested', '- a\n  - b\n- c', ['• a', '  ◦ b', '• c']],
    ['ordered from its start', '3. a\n4. b', ['3. a', '4. b']],
    [
      'numbers line up',
      Array.from({ length: 10 }, (_, i) => `${i + 1}. x`).join('\n'),
      [' 1. x', ' 2. x', ' 3. x', ' 4. x', ' 5. x', ' 6. x', ' 7. x', ' 8. x', ' 9. x', '10. x'],
    ],
    ['loose list', '- a\n\n- b', ['• a', '', '• b']],
    ['quote', '> one\n> two', ['│ one two']],
    ['fence with language', '```js\nlet a = 1;\n```', ['┌─ js', '│ let a = 1;']],
    ['indented code', '    raw  text', ['┌─', '│ raw  text']],
    ['rule', 'a\n\n---\n\nb', ['a', '', '─'.repeat(40), '', 'b']],
    ['hard break', 'a  \nb', ['a', 'b']],
    ['raw HTML stays text', '<b>x</b>', ['<b>x</b>']],
    ['table', '| a | b |\n|---|--:|\n| 1 | 22 |', ['a │  b', '──┼───', '1 │ 22']],
  ])('%s', (_name, text, expected) => {
    expect(plain(text)).toEqual(expected);
  });

  it('wraps paragraphs and list items under their marker', () => {
    expect(plain('- one two three four five six seven', 16)).toEqual([
      '• one two three',
      '  four five six',
      '  seven',
    ]);
  });

  it('wraps a long code line behind the gutter, deeper than its indentation', () => {
    expect(plain('```\n  alpha beta gamma delta\n```', 18)).toEqual([
      '┌─',
      '│   alpha beta',
      '│     gamma delta',
    ]);
  });

  it('draws a table too wide for the width as header: value rows', () => {
    const table = '| name | value |\n|---|---|\n| alpha | one |\n| beta | two |';
    expect(plain(table, 8)).toEqual([
      'name:',
      '  alpha',
      'value:',
      '  one',
      '────────',
      'name:',
      '  beta',
      'value:',
      '  two',
    ]);
  });

  it('shrinks the widest column of a table and wraps its cells', () => {
    const table = '| k | text |\n|---|---|\n| 1 | a long cell that wraps |';
    expect(plain(table, 16)).toEqual([
      'k │ text',
      '──┼─────────────',
      '1 │ a long cell',
      '  │ that wraps',
    ]);
  });

  it('styles emphasis, code, links and headings', () => {
    const [line] = markdownLines('**b** *i* `c` [l](https://u)', 40);
    const styles = Object.fromEntries((line ?? []).map((s) => [s.text, s.style]));
    expect(styles['b']).toMatchObject({ bold: true });
    expect(styles['i']).toMatchObject({ italic: true });
    expect(styles['c']).toMatchObject({ fg: 6 });
    expect(styles['l']).toMatchObject({ underline: true });
    expect(styles[' (https://u)']).toMatchObject({ dim: true });
    expect(markdownLines('# H', 40)[0]?.[0]?.style).toMatchObject({ bold: true, underline: true });
  });

  it('highlights fenced code by its language', () => {
    const lines = markdownLines('```ts\nconst a = "s";\n```', 40);
    const code = lines[1] ?? [];
    expect(code.find((s) => s.text === 'const')?.style).toMatchObject({ fg: 5 });
    expect(code.find((s) => s.text === '"s"')?.style).toMatchObject({ fg: 2 });
  });

  it('removes escape sequences and control characters from every text', () => {
    const hostile =
      '# \x1b]0;title\x07Head\n\n- \x1b[2Jitem `\x1b]52;c;Zm9v\x07code` [x](https://a\x1b[31m)';
    const text = markdownLines(hostile, 60)
      .flatMap((line) => line.map((s) => s.text))
      .join('');
    // eslint-disable-next-line no-control-regex -- looking for control characters on purpose
    expect(text).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(text).toContain('Head');
    expect(text).toContain('item');
  });
});

describe('markdownSegments()', () => {
  const whole = new MarkdownIt('default', { html: false, linkify: false, typographer: false });
  const renderWhole = (text: string) => {
    const tokens = whole.parse(text, {});
    return blockLines(tokens, 0, tokens.length - 1, 60).map((line) => plainText(line).trimEnd());
  };

  it.each([
    ['paragraphs', 'a\n\nb\n\nc', 3],
    ['a loose list stays one part', '- a\n\n- b\n\nafter', 2],
    ['an ordered list stays one part', '1. a\n\n2. b', 1],
    ['indented continuation stays', '- a\n\n  more of a\n\nnext', 2],
    ['a fence with blank lines stays', '```\none\n\ntwo\n```\n\nafter', 2],
    ['a tilde fence', '~~~\n\nx\n~~~\n\ny', 2],
    ['a longer closing fence', '````\n\n```\n\n````\n\nz', 2],
    ['quotes split', '> a\n\n> b', 2],
  ])('%s', (_name, text, parts) => {
    const segments = markdownSegments(text);
    expect(segments).toHaveLength(parts);
    expect(segments.join('')).toBe(text);
  });

  it('renders the parts one by one as markdown-it renders the whole text', () => {
    for (const text of [
      markdownAnswer,
      '- a\n\n- b\n\n  c\n\nd\n\n```\nx\n\ny\n```\n\n> q\n\n1. n',
    ]) {
      expect(plain(text, 60)).toEqual(renderWhole(text));
    }
  });
});

describe('createMarkdownStream()', () => {
  /** The answer cut into chunks of `size` characters. */
  const chunks = (text: string, size: number) =>
    Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(0, (i + 1) * size));

  it.each([1, 7, 50])('ends with what markdownLines draws (chunks of %i)', (size) => {
    const stream = createMarkdownStream();
    let lines: ReturnType<typeof markdownLines> = [];
    for (const text of chunks(markdownAnswer, size)) lines = stream.lines(text, 60);
    expect(lines.map((line) => plainText(line).trimEnd())).toEqual(plain(markdownAnswer, 60));
  });

  it('draws a finished part once: its lines keep their identity while the text grows', () => {
    const stream = createMarkdownStream();
    const first = stream.lines('First paragraph.\n\nSecond\nline', 40);
    const later = stream.lines('First paragraph.\n\nSecond\nline grows\n\nThird', 40);
    expect(later[0]).toBe(first[0]);
    expect(later.map(plainText)).toEqual([
      'First paragraph.',
      '',
      'Second line grows',
      '',
      'Third',
    ]);
  });

  it('starts over at another width', () => {
    const stream = createMarkdownStream();
    stream.lines('alpha beta gamma\n\nx', 40);
    expect(stream.lines('alpha beta gamma\n\nx', 10).map(plainText)).toEqual([
      'alpha beta',
      'gamma',
      '',
      'x',
    ]);
  });
});
