import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  controlRuns,
  limitTerminalLines,
  renderTerminalOutput,
  visibleControls,
  terminalCard,
  terminalLines,
  type TerminalLine,
} from '../../src/cards/index.js';
import { exitMarker } from '../../src/contract/index.js';
import { succeeded } from './card-blocks.js';
import { posix, toolBlock } from './tool-block.js';

const esc = '\x1b';
// eslint-disable-next-line no-control-regex
const controlChars = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;
const texts = (body: string, cols = 80): string[] =>
  renderTerminalOutput(body, { cols }).map((line) => line.text);

describe('renderTerminalOutput()', () => {
  const plain: [string, string, string[]][] = [
    ['empty body', '', []],
    ['lines, trailing newline dropped', 'a\nb\n', ['a', 'b']],
    ['blank lines inside kept, trailing blank lines dropped', 'a\n\nb\n\n\n', ['a', '', 'b']],
    ['CRLF', 'a\r\nb\r\n', ['a', 'b']],
    ['tab stops', 'a\tb', ['a       b']],
    ['trailing spaces dropped', 'a   \n', ['a']],
  ];
  it.each(plain)('plain text: %s', (_, body, expected) => expect(texts(body)).toEqual(expected));

  const colours: [string, string, TerminalLine][] = [
    [
      'palette fg',
      `${esc}[31mred${esc}[0m x`,
      { text: 'red x', spans: [{ start: 0, end: 3, fg: 1 }] },
    ],
    ['bright fg', `${esc}[91mhi`, { text: 'hi', spans: [{ start: 0, end: 2, fg: 9 }] }],
    ['256-colour fg', `${esc}[38;5;208mo`, { text: 'o', spans: [{ start: 0, end: 1, fg: 208 }] }],
    [
      'true colour fg and bg',
      `${esc}[38;2;255;0;128;48;2;0;16;32mt`,
      { text: 't', spans: [{ start: 0, end: 1, fg: '#ff0080', bg: '#001020' }] },
    ],
    [
      'palette bg',
      `${esc}[42m ok ${esc}[0m`,
      { text: ' ok ', spans: [{ start: 0, end: 4, bg: 2 }] },
    ],
    [
      'attributes',
      `${esc}[1mb${esc}[0m${esc}[3mi${esc}[0m${esc}[4mu${esc}[0m${esc}[2md${esc}[0m${esc}[7mv`,
      {
        text: 'biudv',
        spans: [
          { start: 0, end: 1, bold: true },
          { start: 1, end: 2, italic: true },
          { start: 2, end: 3, underline: true },
          { start: 3, end: 4, dim: true },
          { start: 4, end: 5, inverse: true },
        ],
      },
    ],
    [
      'adjacent runs with one style merge',
      `${esc}[32mab${esc}[32mcd${esc}[0m`,
      { text: 'abcd', spans: [{ start: 0, end: 4, fg: 2 }] },
    ],
  ];
  it.each(colours)('colours and styles: %s', (_, body, expected) => {
    expect(renderTerminalOutput(body)).toEqual([expected]);
  });

  const replay: [string, string, string[], number?][] = [
    ['CR progress bar ends in its final state', '0%\r50%\r100%\ndone\n', ['100%', 'done']],
    ['progress bar with erase-line', `[##   ] 40%\r${esc}[2K[#####] 100%\n`, ['[#####] 100%']],
    ['shorter overwrite keeps the tail, as a terminal does', 'abcdef\rXY\n', ['XYcdef']],
    ['cursor up redraws an earlier line', `a\nb\n${esc}[2A${esc}[2Kc\n`, ['c', 'b']],
    ['backspace', 'ab\bc', ['ac']],
    [
      'long line wraps in the emulator and comes back as one line',
      'x'.repeat(25),
      ['x'.repeat(25)],
      10,
    ],
    [
      'CR on a wrapped line returns to the start of its last row',
      `${'x'.repeat(12)}\rY`,
      ['xxxxxxxxxxYx'],
      10,
    ],
  ];
  it.each(replay)('cursor replay: %s', (_, body, expected, cols) => {
    expect(texts(body, cols)).toEqual(expected);
  });

  const wide: [string, string, number, string[]][] = [
    ['CJK text', '中文字\n', 80, ['中文字']],
    ['CR over a CJK character keeps widths', '中文\rab\n', 80, ['ab文']],
    ['emoji is two cells wide (Unicode 11)', '😀|\rA\n', 80, ['A |']],
    ['wide character that does not fit wraps whole', 'abcd中e', 5, ['abcd中e']],
    ['combining mark stays on its base', 'e\u0301x\n', 80, ['e\u0301x']],
  ];
  it.each(wide)('wide characters: %s', (_, body, cols, expected) => {
    expect(texts(body, cols)).toEqual(expected);
  });

  const hostile: [string, string, string[]][] = [
    ['OSC 0 window title', `${esc}]0;pwned${esc}\\a\n`, ['a']],
    ['OSC 2 title with BEL', `${esc}]2;pwned\x07a\n`, ['a']],
    ['OSC 52 clipboard write', `${esc}]52;c;cm0gLXJmIC8=\x07a\n`, ['a']],
    [
      'OSC 8 hyperlink keeps its text only',
      `${esc}]8;;https://evil${esc}\\link${esc}]8;;${esc}\\\n`,
      ['link'],
    ],
    ['DCS request', `${esc}P1$qm${esc}\\a\n`, ['a']],
    ['APC, PM and SOS strings', `${esc}_x${esc}\\${esc}^y${esc}\\${esc}Xz${esc}\\a\n`, ['a']],
    ['cursor far above the output', `top\n${esc}[999Aup\n`, ['upp']],
    [
      'mode changes, bell, device status request',
      `${esc}[?1000h${esc}[?2004h\x07${esc}[6na\n`,
      ['a'],
    ],
    ['C1 CSI (U+009B)', '\u009b31mred\n', ['red']],
  ];
  it.each(hostile)('control sequences stay inside the card: %s', (_, body, expected) => {
    const lines = renderTerminalOutput(body);
    expect(lines.map((l) => l.text.trimEnd())).toEqual(expected);
    for (const line of lines) expect(line.text).not.toMatch(controlChars);
  });

  const cleared = '── screen cleared ──';
  const reset = '── terminal reset ──';
  const alternate = '── alternate screen ──';
  const main = '── back to the main screen ──';
  const breaks: [string, string, string[]][] = [
    ['clear (ED 2, ED 3, home)', `old\n${esc}[2J${esc}[3J${esc}[Hnew\n`, ['old', cleared, 'new']],
    ['clear as `clear` writes it', `a\nb\n${esc}[H${esc}[2J${esc}[3Jc`, ['a', 'b', cleared, 'c']],
    ['ED 1 (erase above)', `a\n${esc}[1Jb`, ['a', cleared, 'b']],
    ['DECSED 2', `a\n${esc}[?2Jb`, ['a', cleared, 'b']],
    ['home then ED 0', `a\n${esc}[H${esc}[Jb`, ['a', cleared, 'b']],
    ['home then ED 0, long form', `a\n${esc}[1;1H${esc}[0Jb`, ['a', cleared, 'b']],
    ['ED 0 elsewhere redraws in place', `a\nb${esc}[1A\r${esc}[Jc`, ['c']],
    ['ED 2 with a C0 control inside', `a\n${esc}[2\x00Jb`, ['a', cleared, 'b']],
    ['an aborted sequence does nothing', `a\n${esc}[2\x18Jb`, ['a', 'Jb']],
    ['C1 CSI clear', `a\n\u009b2Jb`, ['a', cleared, 'b']],
    ['full reset (RIS)', `a\n${esc}cb`, ['a', reset, 'b']],
    [
      'alternate screen entered and left',
      `a\n${esc}[?1049hALT${esc}[?1049lb\n`,
      ['a', alternate, 'ALT', main, 'b'],
    ],
    ['mode 47 with other modes', `a\n${esc}[?25;47hALT`, ['a', alternate, 'ALT']],
    ['mode 1047', `a\n${esc}[?1047hALT${esc}[?1047l`, ['a', alternate, 'ALT', main]],
    ['breaks in a row show once', `a\n${esc}[2J${esc}[3J${esc}c${esc}[2Jb`, ['a', cleared, 'b']],
    ['a clear at the start hides nothing', `${esc}[H${esc}[2J${esc}[3Jfresh`, ['fresh']],
    ['a clear at the end says so', `done\n${esc}[2J`, ['done', cleared]],
    ['an empty alternate screen', `a\n${esc}[?1049h${esc}[?1049lb`, ['a', main, 'b']],
    ['ED 2 in a private mode sequence is not a clear', `a\n${esc}[>2Jb`, ['a', 'b']],
  ];
  it.each(breaks)('screen breaks keep what came before: %s', (_, body, expected) => {
    const lines = renderTerminalOutput(body);
    expect(lines.map((l) => l.text)).toEqual(expected);
    for (const line of lines) {
      const marker = line.text.startsWith('── ');
      expect(line.screenBreak !== undefined).toBe(marker);
      if (marker) expect(line.spans).toEqual([{ start: 0, end: line.text.length, dim: true }]);
    }
  });

  it('never loses a line printed before any screen break', () => {
    const word = fc.stringMatching(/^[a-z0-9]{1,12}$/);
    const breaker = fc.constantFrom(
      `${esc}[2J`,
      `${esc}[3J`,
      `${esc}[1J`,
      `${esc}[H${esc}[J`,
      `${esc}c`,
      `${esc}[?1049h`,
      `${esc}[?1049l`,
      `${esc}[?47h`,
      '\u009b2J',
    );
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.array(word, { maxLength: 4 }), breaker), { maxLength: 6 }),
        (parts) => {
          const body = parts.map(([lines, brk]) => `${lines.join('\n')}\n${brk}`).join('');
          const shown = renderTerminalOutput(body).flatMap((l) => (l.screenBreak ? [] : [l.text]));
          expect(shown).toEqual(parts.flatMap(([lines]) => lines));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('keeps colours on both sides of a clear', () => {
    const lines = renderTerminalOutput(`${esc}[31mred${esc}[0m\n${esc}[2J${esc}[32mgreen`);
    expect(lines).toEqual([
      { text: 'red', spans: [{ start: 0, end: 3, fg: 1 }] },
      {
        text: cleared,
        spans: [{ start: 0, end: cleared.length, dim: true }],
        screenBreak: 'clear',
      },
      { text: 'green', spans: [{ start: 0, end: 5, fg: 2 }] },
    ]);
  });

  it('starts every replay from a fresh terminal state', () => {
    const leftovers = `${esc}[?1049h${esc}(0${esc}[4h${esc}[2;3r${esc}[?6h${esc}[31m${esc}[?7lqqq`;
    renderTerminalOutput(leftovers, { cols: 20 });
    expect(renderTerminalOutput('plain qqq\nnext', { cols: 20 })).toEqual([
      { text: 'plain qqq', spans: [] },
      { text: 'next', spans: [] },
    ]);
  });

  it.each([
    ['an unterminated OSC', `x${esc}]0;title`],
    ['an unterminated DCS', `x${esc}P1$q`],
    ['a lone ESC', `x${esc}`],
    ['an open CSI', `x${esc}[38;5`],
  ])('never lets %s swallow the next replay', (_, leftover) => {
    renderTerminalOutput(leftover);
    expect(texts('hello\nworld')).toEqual(['hello', 'world']);
  });

  it('keeps a far cursor jump inside the terminal geometry', () => {
    const lines = renderTerminalOutput(`a${esc}[999;999Hz`, { cols: 30, rows: 5 });
    expect(lines.map((l) => l.text)).toEqual(['a', '', '', '', `${' '.repeat(29)}z`]);
  });

  it('keeps every line of long output', () => {
    const body = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n');
    const lines = texts(body);
    expect(lines).toHaveLength(3000);
    expect(lines[0]).toBe('line 0');
    expect(lines[2999]).toBe('line 2999');
  });

  it('renders a build log as a terminal would', () => {
    const body = [
      `${esc}[1m> build${esc}[0m`,
      `compiling ${esc}[36m[1/3]${esc}[0m\r${esc}[2Kcompiling ${esc}[36m[3/3]${esc}[0m`,
      `${esc}[33mwarning${esc}[0m: unused ${esc}[4mvariable${esc}[0m 名前`,
      `${esc}[1;32m✓${esc}[0m done`,
    ].join('\n');
    expect(renderTerminalOutput(body)).toMatchSnapshot();
  });
});

describe('limitTerminalLines()', () => {
  const lines = (n: number): TerminalLine[] =>
    Array.from({ length: n }, (_, i) => ({ text: String(i), spans: [] }));
  const cases: [string, number, { head: number; tail: number } | undefined, string][] = [
    ['fits: all lines, nothing hidden', 8, undefined, '0,1,2,3,4,5,6,7 | 0 | '],
    ['over: head, hidden count, tail', 20, undefined, '0,1,2 | 12 | 15,16,17,18,19'],
    ['custom limit', 10, { head: 1, tail: 2 }, '0 | 7 | 8,9'],
    ['tail only', 10, { head: 0, tail: 2 }, ' | 8 | 8,9'],
    ['empty', 0, undefined, ' | 0 | '],
  ];
  it.each(cases)('%s', (_, n, limit, expected) => {
    const preview = limitTerminalLines(lines(n), limit);
    const join = (ls: readonly TerminalLine[]) => ls.map((l) => l.text).join(',');
    expect(`${join(preview.head)} | ${preview.hidden} | ${join(preview.tail)}`).toBe(expected);
  });
});

describe('terminalLines()', () => {
  it('replays the card output once per card and geometry', () => {
    const card = terminalCard(
      succeeded('bash', { command: 'ls' }, `a\r\x1b[31mb\n${exitMarker(0)}`),
      posix,
    );
    expect(card).toBeDefined();
    if (!card) return;
    const first = terminalLines(card, { cols: 40 });
    expect(first).toEqual([{ text: 'b', spans: [{ start: 0, end: 1, fg: 1 }] }]);
    expect(terminalLines(card, { cols: 40 })).toBe(first);
    expect(terminalLines(card, { cols: 41 })).not.toBe(first);
  });

  it('has no lines while running', () => {
    const card = terminalCard(toolBlock('bash', { command: 'ls' }), posix);
    expect(card && terminalLines(card)).toEqual([]);
  });
});

describe('visibleControls()', () => {
  it.each<[string, string, string]>([
    ['a clear reads as its escape', `a${esc}[2J${esc}[3Jb`, 'a␛[2J␛[3Jb'],
    ['a reset', `${esc}c`, '␛c'],
    ['newlines and tabs stay, CR shows', 'a\tb\r\nc', 'a\tb␍\nc'],
    ['BEL, NUL and DEL', '\x07\x00\x7f', '␇␀␡'],
    ['C1 CSI', '\u009b31m', '⟨CSI⟩31m'],
    ['bidi overrides', 'a\u202eb\u2066c', 'a⟨RLO⟩b⟨LRI⟩c'],
    ['plain text unchanged', 'héllo 名前 😀', 'héllo 名前 😀'],
  ])('%s', (_, text, expected) => {
    expect(visibleControls(text)).toBe(expected);
  });
});

describe('controlRuns()', () => {
  it.each<[string, string, [string, boolean][]]>([
    ['plain text is one run', 'abc', [['abc', false]]],
    ['empty text has no runs', '', []],
    [
      'a clear names ESC',
      `a${esc}[2Jb`,
      [
        ['a', false],
        ['ESC', true],
        ['[2Jb', false],
      ],
    ],
    [
      'controls in a row, CR, BEL, DEL, C1 and bidi by name',
      '\r\x07\x7f\u009b\u202e\t\n',
      [
        ['CR', true],
        ['BEL', true],
        ['DEL', true],
        ['CSI', true],
        ['RLO', true],
        ['\t\n', false],
      ],
    ],
  ])('%s', (_, text, expected) => {
    expect(controlRuns(text).map((run) => [run.text, run.control])).toEqual(expected);
  });
});
