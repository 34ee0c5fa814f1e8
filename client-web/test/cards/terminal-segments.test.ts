import type { TerminalLine } from '@dsh/card-models';
import { describe, expect, it } from 'vitest';
import { paletteColor, terminalSegments } from '../../src/cards/index.js';

describe('paletteColor()', () => {
  const cases: [number | string, string | undefined][] = [
    [1, undefined],
    [15, undefined],
    [16, '#000000'],
    [21, '#0000ff'],
    [196, '#ff0000'],
    [214, '#ffaf00'],
    [231, '#ffffff'],
    [232, '#080808'],
    [255, '#eeeeee'],
    [256, undefined],
    ['#12aBef', '#12aBef'],
    ['red', undefined],
    ['#fff', undefined],
  ];
  it.each(cases)('%j -> %j', (color, css) => {
    expect(paletteColor(color)).toBe(css);
  });
});

describe('terminalSegments()', () => {
  const cases: [string, TerminalLine, unknown[]][] = [
    ['plain line', { text: 'hello', spans: [] }, [{ text: 'hello', styled: false }]],
    [
      'theme colour and gap',
      { text: 'ok done', spans: [{ start: 0, end: 2, fg: 2, bold: true }] },
      [
        { text: 'ok', classes: ['dsh-t-bold'], style: { color: 'var(--dsh-ansi-2)' } },
        { text: ' done', styled: false },
      ],
    ],
    [
      '256 colour and truecolor background',
      {
        text: 'ab',
        spans: [
          { start: 0, end: 1, fg: 214 },
          { start: 1, end: 2, bg: '#102030' },
        ],
      },
      [
        { text: 'a', style: { color: '#ffaf00' } },
        { text: 'b', style: { backgroundColor: '#102030' } },
      ],
    ],
    [
      'inverse swaps colours',
      { text: 'x', spans: [{ start: 0, end: 1, inverse: true }] },
      [
        {
          text: 'x',
          style: { color: 'var(--dsh-term-bg)', backgroundColor: 'var(--dsh-term-fg)' },
        },
      ],
    ],
    [
      'spans past the text are clipped',
      { text: 'ab', spans: [{ start: 1, end: 9, underline: true, dim: true, italic: true }] },
      [
        { text: 'a', styled: false },
        { text: 'b', classes: ['dsh-t-italic', 'dsh-t-underline', 'dsh-t-dim'] },
      ],
    ],
  ];
  it.each(cases)('%s', (_name, line, expected) => {
    const segments = terminalSegments(line);
    expect(segments).toHaveLength(expected.length);
    segments.forEach((segment, i) => expect(segment).toMatchObject(expected[i] as object));
  });
});
