import { describe, expect, it } from 'vitest';
import { seg, type StyledLine } from '../src/index.js';
import { createFrame, frameRowText, putLine, type Frame } from '../src/ui/frame.js';
import { createTerminalWriter } from '../src/ui/terminal-writer.js';
import { createVirtualTerminal } from './virtual-terminal.js';

const frameOf = (cols: number, rows: readonly StyledLine[]): Frame => {
  const frame = createFrame(cols, rows.length);
  rows.forEach((line, y) => putLine(frame, 0, y, cols, line));
  return frame;
};

describe('putLine()', () => {
  it.each([
    ['plain text is padded to the region', 'ab', 4, 'ab  '],
    ['wide glyphs take two cells', '🎉✅a', 6, '🎉✅a '],
    ['a wide glyph that would cross the edge becomes a blank', 'a🎉', 2, 'a '],
    ['text is clipped at the region end', 'abcdef', 3, 'abc'],
  ])('%s', (_name, text, width, expected) => {
    const frame = createFrame(width, 1);
    putLine(frame, 0, 0, width, [seg(text)]);
    expect(frameRowText(frame, 0)).toBe(expected);
  });

  it('overwriting half of a wide glyph blanks its other half', () => {
    const frame = createFrame(6, 1);
    putLine(frame, 0, 0, 6, [seg('🎉🎉🎉')]);
    putLine(frame, 1, 0, 1, [seg('x')]); // the right half of the first glyph
    putLine(frame, 4, 0, 1, [seg('y')]); // the left half of the third glyph
    expect(frameRowText(frame, 0)).toBe(' x🎉y ');
    expect(frame.cells[0]?.map((cell) => cell.width)).toEqual([1, 1, 2, 0, 1, 1]);
  });
});

describe('createTerminalWriter()', () => {
  // Each step draws a frame; the terminal must show exactly that frame, whatever came before.
  it.each([
    ['narrow over wide', ['🎉🎉 ok', 'ab    x']],
    ['wide over narrow, shifted', ['abcdef', 'a🎉✅f', '🎉a✅ ']],
    ['emoji changing in place', ['🎉 party', '🎊 party', '✅ party']],
    ['CJK and emoji mixed', ['中文 ok 👍', 'x中文 👍', '  👍👍 中']],
    ['row cleared to blank', ['🎉🚀👍✅', '']],
  ])('%s', async (_name, steps) => {
    const vt = createVirtualTerminal(10, 2);
    const writer = createTerminalWriter((text) => vt.output.write(text), 256);
    for (const text of steps) {
      const frame = frameOf(10, [[seg(text)], [seg(`row2 ${text}`)]]);
      writer.draw(frame);
      await vt.settle();
      const shown = vt.lines().map((line) => line.trimEnd());
      expect(shown).toEqual([0, 1].map((y) => frameRowText(frame, y).trimEnd()));
    }
    vt.dispose();
  });

  it('writes nothing for an unchanged frame and only the changed span otherwise', () => {
    let written = '';
    const writer = createTerminalWriter((text) => (written += text), 256);
    writer.draw(frameOf(20, [[seg('first row')], [seg('second row')]]));
    written = '';
    writer.draw(frameOf(20, [[seg('first row')], [seg('second row')]]));
    expect(written).toBe('');
    writer.draw(frameOf(20, [[seg('first row')], [seg('second ROW')]]));
    expect(written).toBe('\x1b[?25l\x1b[2;8H\x1b[0mROW');
  });

  it('emits dim, italic and the rest of the attributes', () => {
    let written = '';
    const writer = createTerminalWriter((text) => (written += text), 256);
    writer.draw(
      frameOf(20, [
        [seg('think', { dim: true, italic: true }), seg(' '), seg('bold', { bold: true, fg: 214 })],
      ]),
    );
    expect(written).toContain('\x1b[0;2;3mthink');
    expect(written).toContain('\x1b[0;1;38;5;214mbold');
  });

  it('reduces colours at depth 16 and places the cursor of the frame', () => {
    let written = '';
    const writer = createTerminalWriter((text) => (written += text), 16);
    const frame = frameOf(10, [[seg('x', { fg: 214 }), seg('y', { fg: '#ff0000' })]]);
    frame.cursor = { x: 3, y: 0 };
    writer.draw(frame);
    expect(written).not.toMatch(/[34]8;[25];/);
    expect(written.endsWith('\x1b[1;4H\x1b[?25h')).toBe(true);
  });
});
