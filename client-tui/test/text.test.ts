import { describe, expect, it } from 'vitest';
import { glyphsOf } from '../src/text/glyphs.js';
import {
  detectColorDepth,
  plainText,
  sanitizeText,
  seg,
  textWidth,
  toSgr,
  truncateLine,
  wrapLine,
} from '../src/index.js';

describe('sanitizeText()', () => {
  it.each([
    ['plain', 'hello', 'hello'],
    ['OSC 0 title (BEL)', 'a\x1b]0;pwned\x07b', 'ab'],
    ['OSC 2 title (ST)', 'a\x1b]2;pwned\x1b\\b', 'ab'],
    ['OSC 52 clipboard', '\x1b]52;c;cm0gLXJm\x07x', 'x'],
    ['OSC 8 hyperlink keeps its text', '\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\', 'link'],
    ['CSI clear and home', '\x1b[2J\x1b[Hx', 'x'],
    ['CSI cursor position', '\x1b[10;5Hx', 'x'],
    ['SGR is removed too (colours come from spans)', '\x1b[31mred\x1b[0m', 'red'],
    ['RIS', '\x1bcx', 'x'],
    ['DCS', '\x1bPq#0;2;0;0;0\x1b\\x', 'x'],
    ['8-bit CSI', '\u009b2Jx', 'x'],
    ['unterminated OSC eats the rest', 'a\x1b]0;title', 'a'],
    ['BEL, backspace, NUL', 'a\x07\x08\x00b', 'ab'],
    ['CR LF and lone CR become newlines', 'a\r\nb\rc', 'a\nb\nc'],
    ['tabs expand to 4-cell stops', 'a\tbc\td', 'a   bc  d'],
    ['bidi overrides', 'abc\u202edcba', 'abcdcba'],
    ['wide characters stay', '中文 😀', '中文 😀'],
  ])('%s', (_name, input, expected) => {
    expect(sanitizeText(input)).toBe(expected);
  });
});

describe('wrapLine()', () => {
  it.each([
    ['fits', 'hello world', 20, 0, ['hello world']],
    ['breaks at a space', 'hello wide world', 11, 0, ['hello wide', 'world']],
    ['hard-breaks a long word', 'abcdefghij', 4, 0, ['abcd', 'efgh', 'ij']],
    ['indents continuation rows', 'aaaa bbbb cccc', 9, 2, ['aaaa bbbb', '  cccc']],
    ['wide characters never straddle', '中文中文中', 5, 0, ['中文', '中文', '中']],
    ['emoji take two cells', 'ok 🎉🚀 done ✅👍', 7, 0, ['ok 🎉🚀', 'done', '✅👍']],
  ])('%s', (_name, text, width, indent, expected) => {
    expect(wrapLine([seg(text)], width, indent).map(plainText)).toEqual(expected);
  });

  it('keeps styles across rows', () => {
    const rows = wrapLine([seg('red ', { fg: 1 }), seg('plain')], 4);
    expect(rows).toEqual([
      [{ text: 'red', style: { fg: 1 } }],
      [{ text: 'plai' }],
      [{ text: 'n' }],
    ]);
  });

  it('limits rows with maxRows and marks the cut', () => {
    const rows = wrapLine([seg('x'.repeat(100))], 10, 0, 2);
    expect(rows.map(plainText)).toEqual(['x'.repeat(10), 'x'.repeat(9) + '…']);
  });
});

describe('glyphsOf()', () => {
  // Widths as tmux 3.3, xterm, VTE, kitty and wezterm all draw them (sequences they draw
  // differently are reduced to their first emoji).
  it.each([
    [
      'ASCII',
      'ab',
      [
        ['a', 1],
        ['b', 1],
      ],
    ],
    [
      'party popper, rocket, thumbs up',
      '🎉🚀👍',
      [
        ['🎉', 2],
        ['🚀', 2],
        ['👍', 2],
      ],
    ],
    [
      'check mark (emoji presentation) and heavy check (text)',
      '✅✔',
      [
        ['✅', 2],
        ['✔', 1],
      ],
    ],
    [
      'CJK',
      '中a',
      [
        ['中', 2],
        ['a', 1],
      ],
    ],
    [
      'combining mark joins its base',
      'e\u0301x',
      [
        ['é', 1],
        ['x', 1],
      ],
    ],
    ['VS16 is dropped: the heart stays narrow', '❤️', [['❤', 1]]],
    ['a skin tone is dropped', '👍🏽', [['👍', 2]]],
    [
      'ZWJ sequences fall apart',
      '👨‍👩',
      [
        ['👨', 2],
        ['👩', 2],
      ],
    ],
    ['keycap becomes its digit', '1️⃣', [['1', 1]]],
    ['a flag is one wide glyph', '🇫🇷', [['🇫🇷', 2]]],
    [
      'zero-width characters vanish',
      'a\u200bb',
      [
        ['a', 1],
        ['b', 1],
      ],
    ],
  ])('%s', (_name, text, expected) => {
    expect(glyphsOf(text).map((g) => [g.text, g.width])).toEqual(expected);
    expect(textWidth(text)).toBe(expected.reduce((n, [, w]) => n + (w as number), 0));
  });
});

describe('truncateLine()', () => {
  it.each([
    ['short', 'abc', 5, 'abc'],
    ['cut with ellipsis', 'abcdefgh', 5, 'abcd…'],
    ['wide', '中文中文', 5, '中文…'],
    ['emoji', '🎉🎉🎉🎉', 5, '🎉🎉…'],
  ])('%s', (_name, text, width, expected) => {
    const line = truncateLine([seg(text)], width);
    expect(plainText(line)).toBe(expected);
    expect(textWidth(plainText(line))).toBeLessThanOrEqual(width);
  });
});

describe('toSgr()', () => {
  it.each([
    ['plain', [seg('a')], 'a'],
    ['ANSI fg', [seg('a', { fg: 1 })], '\x1b[31ma\x1b[0m'],
    ['bright fg', [seg('a', { fg: 9 })], '\x1b[91ma\x1b[0m'],
    ['256 fg and bg', [seg('a', { fg: 214, bg: 17 })], '\x1b[38;5;214;48;5;17ma\x1b[0m'],
    [
      'true colour becomes the nearest 256 colour',
      [seg('a', { fg: '#ff8000' })],
      '\x1b[38;5;208ma\x1b[0m',
    ],
    [
      'attributes',
      [seg('a', { bold: true, dim: true, italic: true, underline: true, inverse: true })],
      '\x1b[1;2;3;4;7ma\x1b[0m',
    ],
    ['bad colours are dropped', [seg('a', { fg: 300, bg: 'red' })], 'a'],
  ])('%s', (_name, line, expected) => {
    expect(toSgr(line)).toBe(expected);
  });
});

describe('detectColorDepth()', () => {
  it.each([
    [{}, 16],
    [{ TERM: 'xterm' }, 16],
    [{ TERM: 'xterm-256color' }, 256],
    [{ TERM: 'screen-256color' }, 256],
    [{ TERM: 'tmux-256color' }, 256],
    [{ TERM: 'screen', COLORTERM: 'truecolor' }, 256],
    [{ TERM: 'xterm-256color', DSH_COLORS: '16' }, 16],
    [{ TERM: 'linux', DSH_COLORS: '256' }, 256],
  ])('%j -> %d', (env, expected) => {
    expect(detectColorDepth(env)).toBe(expected);
  });
});
