import type { TextStyle } from '../text/styled-line.js';

// Merged styles are interned: equal styles are one object, so the terminal writer's
// per-style cache and its identity check work across lines and draws.
const interned = new Map<string, TextStyle>();

function keyOf(style: TextStyle): string {
  return [
    style.fg ?? '',
    style.bg ?? '',
    style.bold ? 'b' : '',
    style.dim ? 'd' : '',
    style.italic ? 'i' : '',
    style.underline ? 'u' : '',
    style.inverse ? 'v' : '',
    style.strike ? 's' : '',
  ].join(',');
}

/** `base` with the attributes of `extra` on top (colours of `extra` win); one object per look. */
export function mergeStyle(
  base: TextStyle | undefined,
  extra: TextStyle | undefined,
): TextStyle | undefined {
  if (extra === undefined) return base;
  if (base === undefined) return internStyle(extra);
  return internStyle({ ...base, ...extra });
}

/** The one interned object that looks like `style`. */
export function internStyle(style: TextStyle): TextStyle {
  const key = keyOf(style);
  let known = interned.get(key);
  if (known === undefined) {
    known = Object.freeze({ ...style });
    interned.set(key, known);
  }
  return known;
}
