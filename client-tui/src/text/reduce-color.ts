import type { TerminalColor } from '@dsh/card-models';
import type { ColorDepth } from './color-depth.js';

// xterm's default RGB values of the 16 ANSI colours and the levels of its 6x6x6 cube.
const ansi: readonly (readonly [number, number, number])[] = [
  [0, 0, 0],
  [205, 0, 0],
  [0, 205, 0],
  [205, 205, 0],
  [0, 0, 238],
  [205, 0, 205],
  [0, 205, 205],
  [229, 229, 229],
  [127, 127, 127],
  [255, 0, 0],
  [0, 255, 0],
  [255, 255, 0],
  [92, 92, 255],
  [255, 0, 255],
  [0, 255, 255],
  [255, 255, 255],
];
const cubeLevels = [0, 95, 135, 175, 215, 255] as const;

function paletteRgb(index: number): readonly [number, number, number] {
  if (index < 16) return ansi[index] as readonly [number, number, number];
  if (index >= 232) {
    const level = 8 + (index - 232) * 10;
    return [level, level, level];
  }
  const n = index - 16;
  return [
    cubeLevels[Math.floor(n / 36)] as number,
    cubeLevels[Math.floor(n / 6) % 6] as number,
    cubeLevels[n % 6] as number,
  ];
}

const distance = (a: readonly number[], b: readonly number[]) =>
  ((a[0] ?? 0) - (b[0] ?? 0)) ** 2 +
  ((a[1] ?? 0) - (b[1] ?? 0)) ** 2 +
  ((a[2] ?? 0) - (b[2] ?? 0)) ** 2;

function nearest(rgb: readonly number[], from: number, to: number): number {
  let best = from;
  let bestDistance = Number.POSITIVE_INFINITY;
  for (let i = from; i < to; i++) {
    const d = distance(rgb, paletteRgb(i));
    if (d < bestDistance) {
      best = i;
      bestDistance = d;
    }
  }
  return best;
}

// The nearest of the 16 ANSI colours for every palette index, computed once.
const toAnsi: readonly number[] = Array.from({ length: 256 }, (_, i) =>
  i < 16 ? i : nearest(paletteRgb(i), 0, 16),
);

/**
 * A colour as a palette index the terminal shows at `depth`: `#rrggbb` becomes the nearest
 * of the 240 cube and grey colours, and at depth 16 everything becomes the nearest ANSI
 * colour. `undefined` for a colour that is no valid index or hex triplet.
 */
export function reduceColor(color: TerminalColor, depth: ColorDepth): number | undefined {
  let index: number;
  if (typeof color === 'number') {
    if (!Number.isInteger(color) || color < 0 || color > 255) return undefined;
    index = color;
  } else {
    const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
    if (!match) return undefined;
    const rgb = [match[1], match[2], match[3]].map((hex) => parseInt(hex ?? '0', 16));
    index = nearest(rgb, 16, 256);
  }
  return depth === 16 ? (toAnsi[index] as number) : index;
}
