import { describe, expect, it } from 'vitest';
import { createComposer, type KeyPress } from '../src/ui/composer.js';

const key = (full: string): KeyPress => ({ name: full, full, ctrl: full.startsWith('C-') });
type Step = readonly [string | undefined, string?];

function run(steps: readonly Step[]) {
  const composer = createComposer();
  for (const [ch, name] of steps) composer.edit(ch, name ? key(name) : { name: ch, full: ch });
  return composer;
}

describe('createComposer()', () => {
  it.each([
    ['types text', [['hello']], 'hello', 5],
    ['backspace', [['abc'], [undefined, 'backspace']], 'ab', 2],
    ['left then insert', [['ac'], [undefined, 'left'], ['b']], 'abc', 2],
    ['C-a and C-k', [['abc'], [undefined, 'C-a'], [undefined, 'C-k']], '', 0],
    ['C-w deletes a word', [['one two'], [undefined, 'C-w']], 'one ', 4],
    [
      'C-u deletes to the line start',
      [['one two'], [undefined, 'left'], [undefined, 'C-u']],
      'o',
      0,
    ],
    ['typed controls are dropped', [['a\x1b[2Jb\x07']], 'a[2Jb', 5],
    [
      'an emoji is one step of the cursor',
      [['a🎉b'], [undefined, 'left'], [undefined, 'backspace']],
      'ab',
      1,
    ],
  ] as const)('%s', (_name, steps, text, cursor) => {
    const composer = run(steps as readonly Step[]);
    expect(composer.text).toBe(text);
    expect(composer.cursor).toBe(cursor);
  });

  it.each([
    ['keeps the lines of a paste', 'one\ntwo\r\nthree', 'one\ntwo\nthree'],
    ['turns tabs into spaces and drops controls', 'a\tb\x1b]0;x\x07', 'a    b]0;x'],
  ])('insert() %s', (_name, pasted, text) => {
    const composer = createComposer();
    composer.insert(pasted);
    expect(composer.text).toBe(text);
  });

  it('C-a, C-e, C-u and C-k work on the line of the cursor', () => {
    const composer = createComposer();
    composer.insert('first\nsecond');
    composer.edit(undefined, key('C-a'));
    composer.edit(undefined, key('C-k'));
    expect(composer.text).toBe('first\n');
    composer.edit(undefined, key('C-k'));
    expect(composer.text).toBe('first\n');
    composer.edit(undefined, key('backspace'));
    composer.edit(undefined, key('C-a'));
    composer.edit(undefined, key('C-e'));
    expect(composer.cursor).toBe(5);
  });

  it('layout() wraps long rows, splits lines and places the cursor', () => {
    const composer = createComposer();
    composer.insert('0123456789ab\n中文🎉x');
    expect(composer.layout(5)).toEqual({
      rows: ['01234', '56789', 'ab', '中文', '🎉x'],
      cursor: { row: 4, column: 3 },
    });
    composer.set('12345');
    expect(composer.layout(5)).toEqual({ rows: ['12345', ''], cursor: { row: 1, column: 0 } });
  });

  it('up and down move between the rows of the last layout at the same column', () => {
    const composer = createComposer();
    composer.insert('abcdef\nxy');
    composer.layout(4);
    composer.edit(undefined, key('up'));
    expect(composer.layout(4).cursor).toEqual({ row: 1, column: 2 });
    composer.edit(undefined, key('up'));
    expect(composer.layout(4).cursor).toEqual({ row: 0, column: 2 });
    composer.edit(undefined, key('down'));
    composer.edit(undefined, key('down'));
    expect(composer.layout(4).cursor).toEqual({ row: 2, column: 2 });
  });
});
