import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  LiveTerminal,
  ScreenSplitter,
  liveOutputNote,
  renderTerminalOutput,
  splitScreens,
  terminalCard,
  terminalCardPreview,
  terminalLines,
  type ScreenPiece,
  type TerminalRenderOptions,
} from '../../src/cards/index.js';
import type { LiveOutput, ToolCallBlock } from '../../src/conversation/types.js';
import { exitMarker } from '../../src/contract/index.js';
import { posix, toolBlock } from './tool-block.js';

const esc = '\x1b';

/** `body` cut into pieces at `cuts` (indexes, any order, duplicates allowed). */
function cut(body: string, cuts: readonly number[]): string[] {
  const at = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  const pieces: string[] = [];
  let from = 0;
  for (const to of [...at, body.length]) {
    pieces.push(body.slice(from, to));
    from = to;
  }
  return pieces;
}

function live(pieces: readonly string[], options: TerminalRenderOptions = {}): LiveTerminal {
  const terminal = new LiveTerminal(options);
  for (const piece of pieces) terminal.write(piece);
  return terminal;
}

/** Bodies that exercise each rule of the settled replay. */
const bodies: [string, string][] = [
  ['plain lines', 'a\nb\n'],
  ['trailing blank lines', 'a\n\nb\n\n\n'],
  ['only newlines', '\n\n\n\n'],
  ['colours', `${esc}[31mred${esc}[0m x\n${esc}[38;2;255;0;128mt`],
  ['CR progress bar', '0%\r50%\r100%\ndone\n'],
  ['a C1 CSI cut short by an emoji', '\u009b😀😀 \u009b\u009b2Jx'],
  ['progress bar with erase-line', `[##   ] 40%\r${esc}[2K[#####] 100%\n`],
  ['cursor up redraws an earlier line', `a\nb\n${esc}[2A${esc}[2Kc\n`],
  ['wide characters', '中文字\n中文\rab\n😀|\rA\n'],
  ['a long line that wraps', 'x'.repeat(1000)],
  ['a wide character at a wrap', `${'a'.repeat(159)}中e\n`],
  [
    'OSC title and hyperlink',
    `${esc}]0;pwned${esc}\\a\n${esc}]8;;https://e${esc}\\link${esc}]8;;${esc}\\\n`,
  ],
  ['clear and home', `old\n${esc}[2J${esc}[3J${esc}[Hnew\n`],
  ['home then ED 0', `a\n${esc}[H${esc}[Jb`],
  ['ED 0 elsewhere', `a\nb${esc}[1A\r${esc}[Jc`],
  ['an aborted sequence', `a\n${esc}[2\x18Jb`],
  ['C1 CSI clear', `a\n\u009b2Jb`],
  ['reset', `a\n${esc}cb`],
  ['alternate screen', `a\n${esc}[?1049hALT${esc}[?1049lb\n`],
  ['breaks in a row', `a\n${esc}[2J${esc}[3J${esc}c${esc}[2Jb`],
  ['a clear at the end', `done\n${esc}[2J`],
  ['a clear at the start', `${esc}[H${esc}[2J${esc}[3Jfresh`],
  ['an unterminated sequence at the end', `a\n${esc}[31`],
  ['a lone ESC at the end', `a\n${esc}`],
  ['many lines', Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')],
  ['many lines with a redraw', `${'l\n'.repeat(600)}${esc}[5A${esc}[2Kx\n`],
  ['a far cursor jump', `a${esc}[999;999Hz`],
];

describe('ScreenSplitter', () => {
  it.each(bodies)('gives the same segments in any pieces: %s', (_, body) => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 12 }), (cuts) => {
        const segments: { text: string; after: string | undefined }[] = [];
        let parts: string[] = [];
        let after: string | undefined;
        const take = (piece: ScreenPiece) => {
          if (piece.screenBreak === undefined) return void parts.push(piece.text);
          segments.push({ text: parts.join(''), after });
          parts = [];
          after = piece.screenBreak;
        };
        const splitter = new ScreenSplitter();
        for (const piece of cut(body, cuts)) splitter.push(piece, take);
        splitter.end(take);
        segments.push({ text: parts.join(''), after });
        expect(segments).toEqual(splitScreens(body));
      }),
      { numRuns: 40 },
    );
  });
});

describe('LiveTerminal', () => {
  it.each(bodies)('equals the settled replay of the whole output: %s', (_, body) => {
    const expected = renderTerminalOutput(body);
    expect(live([body]).lines()).toEqual(expected);
    expect(live(body.split('')).lines()).toEqual(expected);
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 8 }), (cuts) => {
        expect(live(cut(body, cuts)).lines()).toEqual(expected);
      }),
      { numRuns: 10 },
    );
  });

  it('equals the settled replay for random output cut anywhere', () => {
    const atom = fc.constantFrom(
      'a',
      'word ',
      '\n',
      '\r',
      '\t',
      '中',
      '😀',
      `${esc}[31m`,
      `${esc}[0m`,
      `${esc}[2K`,
      `${esc}[1A`,
      `${esc}[2J`,
      `${esc}[H`,
      `${esc}[J`,
      `${esc}c`,
      `${esc}[?1049h`,
      `${esc}[?1049l`,
      `${esc}]0;t\x07`,
      esc,
      '\u009b',
      'x'.repeat(30),
    );
    fc.assert(
      fc.property(
        fc.array(atom, { maxLength: 120 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        fc.constantFrom(12, 40, 160),
        (atoms, cuts, cols) => {
          const body = atoms.join('');
          const options = { cols, rows: 5 };
          const terminal = live(cut(body, cuts), options);
          const expected = renderTerminalOutput(body, options);
          expect(terminal.lines()).toEqual(expected);
          expect(terminal.count()).toBe(expected.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('gives head and tail previews without building every line', () => {
    const body = Array.from({ length: 500 }, (_, i) => `line ${i}`).join('\n');
    const terminal = live(cut(body, [100, 2000, 3000]));
    const preview = terminal.preview({ head: 2, tail: 3 });
    expect(preview.head.map((l) => l.text)).toEqual(['line 0', 'line 1']);
    expect(preview.hidden).toBe(495);
    expect(preview.tail.map((l) => l.text)).toEqual(['line 497', 'line 498', 'line 499']);
    expect(live(['a\nb']).preview({ head: 0, tail: 8 })).toEqual({
      head: renderTerminalOutput('a\nb'),
      hidden: 0,
      tail: [],
    });
  });

  it('keeps the identity of lines that scrolled above the screen', () => {
    const terminal = live([Array.from({ length: 100 }, (_, i) => `l${i}\n`).join('')]);
    const first = terminal.lines()[0];
    terminal.write('more\n');
    expect(terminal.lines()[0]).toBe(first);
  });

  it('falls back to the plain replay after dispose', () => {
    const terminal = live(['a\r\x1b[31mb\n']);
    terminal.dispose();
    terminal.write('c\n');
    expect(terminal.lines()).toEqual(renderTerminalOutput('a\r\x1b[31mb\nc\n'));
  });
});

/** A running bash block whose live output is `chunks` (the first `count`). */
function running(chunks: string[], count = chunks.length, truncated = false): ToolCallBlock {
  const length = chunks.slice(0, count).join('').length;
  const liveOutput: LiveOutput = { chunks, count, length, seq: 20, truncated };
  return { ...toolBlock('bash', { command: 'make' }), live: liveOutput };
}

describe('terminalLines() and terminalCardPreview() with live output', () => {
  it('replays live output while running, each chunk once across versions', () => {
    const chunks = ['line 1\n', 'line 2\n'];
    const first = terminalCard(running(chunks, 1), posix);
    const second = terminalCard(running(chunks, 2), posix);
    if (!first || !second) throw new Error('expected terminal cards');
    expect(first.live?.count).toBe(1);
    expect(terminalLines(first).map((l) => l.text)).toEqual(['line 1']);
    expect(terminalLines(second).map((l) => l.text)).toEqual(['line 1', 'line 2']);
    expect(terminalLines(second)).toBe(terminalLines(second));
    // A stale version read after a newer one gets a replay of its own.
    const stale = terminalCard(running(chunks, 1), posix);
    if (!stale) throw new Error('expected a terminal card');
    expect(terminalLines(stale).map((l) => l.text)).toEqual(['line 1']);
  });

  it('shows the live tail in the conversation and the head and tail once settled', () => {
    const output = Array.from({ length: 20 }, (_, i) => `line ${i + 1}\n`);
    const runningCard = terminalCard(running(output), posix);
    if (!runningCard) throw new Error('expected a terminal card');
    const live = terminalCardPreview(runningCard);
    expect(live.head).toEqual([]);
    expect(live.hidden).toBe(12);
    expect(live.tail.map((l) => l.text)).toEqual(output.slice(12).map((l) => l.trimEnd()));
    const settled = terminalCard(
      toolBlock(
        'bash',
        { command: 'make' },
        { result: { content: `${output.join('')}${exitMarker(0)}` } },
      ),
      posix,
    );
    if (!settled) throw new Error('expected a terminal card');
    expect(settled.live).toBeUndefined();
    const preview = terminalCardPreview(settled);
    expect([preview.head.length, preview.hidden, preview.tail.length]).toEqual([3, 12, 5]);
    // Once settled, the card's lines are the result's, which the live lines equal.
    expect(terminalLines(settled)).toEqual(terminalLines(runningCard));
  });

  it('says when the host stopped live output', () => {
    const stopped = terminalCard(running(['a'], 1, true), posix);
    const going = terminalCard(running(['a'], 1, false), posix);
    expect(stopped && liveOutputNote(stopped)).toMatch(/Live output stopped/);
    expect(going && liveOutputNote(going)).toBeUndefined();
  });

  it('gives live output to persistent shells and terminal_send in the foreground', () => {
    const liveOutput: LiveOutput = {
      chunks: ['x\n'],
      count: 1,
      length: 2,
      seq: 3,
      truncated: false,
    };
    const persistent = terminalCard(
      { ...toolBlock('bash', { command: 'ls', session: 'dev' }), live: liveOutput },
      posix,
    );
    const send = terminalCard(
      { ...toolBlock('terminal_send', { session: 'dev', input: 'ls\n' }), live: liveOutput },
      posix,
    );
    expect(persistent && terminalLines(persistent).map((l) => l.text)).toEqual(['x']);
    expect(send && terminalLines(send).map((l) => l.text)).toEqual(['x']);
  });
});
