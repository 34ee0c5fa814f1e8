import { describe, expect, it } from 'vitest';
import { createInputLine, type KeyPress } from '../src/ui/input-line.js';

const key = (full: string): KeyPress => ({ name: full, full, ctrl: full.startsWith('C-') });

describe('createInputLine()', () => {
  it.each([
    ['types text', [['hello']], 'hello', 5],
    ['backspace', [['abc'], [undefined, 'backspace']], 'ab', 2],
    ['left then insert', [['ac'], [undefined, 'left'], ['b']], 'abc', 2],
    ['C-a and C-k', [['abc'], [undefined, 'C-a'], [undefined, 'C-k']], '', 0],
    ['C-w deletes a word', [['one two'], [undefined, 'C-w']], 'one ', 4],
    [
      'C-u deletes before the cursor',
      [['one two'], [undefined, 'left'], [undefined, 'C-u']],
      'o',
      0,
    ],
    ['a paste drops controls and keeps newlines as spaces', [['a\nb\x1b[2Jc']], 'a b[2Jc', 7],
  ] as const)('%s', (_name, steps, text, cursor) => {
    const input = createInputLine();
    for (const [ch, name] of steps) input.edit(ch, name ? key(name) : { name: ch, full: ch });
    expect(input.text).toBe(text);
    expect(input.cursor).toBe(cursor);
  });

  it('scrolls to keep the cursor visible', () => {
    const input = createInputLine();
    input.set('0123456789abcdef');
    const view = input.view(8);
    expect(view.text.endsWith('f')).toBe(true);
    expect(view.column).toBeLessThan(8);
  });
});
