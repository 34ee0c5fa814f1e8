import stringWidth from 'string-width';

/** One terminal glyph: a grapheme cluster and the cells it takes (1, or 2 when wide). */
export interface Glyph {
  readonly text: string;
  readonly width: 1 | 2;
}

// Sequences terminals disagree about, removed so every terminal draws the same cells:
// variation selectors 15/16 (tmux 3.3 and xterm keep ❤️ one cell, kitty and wezterm make it
// two), zero-width joiners (tmux 3.3 joins 👨‍👩‍👧 into two cells, xterm and VTE draw six),
// skin-tone modifiers after an emoji (tmux draws 👍🏽 in four cells, kitty in two) and the
// keycap mark after a digit, `#` or `*`.
const presentation = /[\uFE0E\uFE0F\u200D]/g;
const modifiers = /(?<=\p{Extended_Pictographic})[\u{1F3FB}-\u{1F3FF}]|(?<=[0-9#*])\u20E3/gu;
const plainAscii = /^[\x20-\x7e]*$/;
const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

// Widths of the graphemes seen lately; cleared when full so hostile text cannot grow it.
const widthCache = new Map<string, number>();
const widthCacheLimit = 4096;

function clusterWidth(cluster: string): number {
  const known = widthCache.get(cluster);
  if (known !== undefined) return known;
  const width = stringWidth(cluster);
  if (widthCache.size >= widthCacheLimit) widthCache.clear();
  widthCache.set(cluster, width);
  return width;
}

/**
 * The glyphs a terminal draws for `text`, each with the cells it takes: East Asian Wide
 * and Fullwidth characters and emoji presentation take two (by `string-width`), the
 * sequences terminals disagree about are removed first (NFC, no VS15/VS16, ZWJ, skin-tone
 * modifiers or keycap marks), and zero-width clusters are dropped. Layout and drawing both
 * measure with this function, so they agree with each other and with the terminal.
 */
export function glyphsOf(text: string): Glyph[] {
  if (plainAscii.test(text)) return Array.from(text, (ch) => ({ text: ch, width: 1 }));
  const glyphs: Glyph[] = [];
  const normalized = text.normalize('NFC').replace(presentation, '').replace(modifiers, '');
  for (const { segment } of segmenter.segment(normalized)) {
    const width =
      segment.length === 1 && segment >= ' ' && segment < '\x7f' ? 1 : clusterWidth(segment);
    if (width === 1 || width === 2) {
      glyphs.push({ text: segment, width });
    } else if (width > 2) {
      // A cluster wider than one glyph (stacked spacing marks): one glyph per code point.
      for (const ch of segment) {
        const w = clusterWidth(ch);
        if (w === 1 || w === 2) glyphs.push({ text: ch, width: w });
      }
    }
  }
  return glyphs;
}

/** Terminal cells `text` takes, as `glyphsOf` lays it out. */
export function textWidth(text: string): number {
  if (plainAscii.test(text)) return text.length;
  let width = 0;
  for (const glyph of glyphsOf(text)) width += glyph.width;
  return width;
}
