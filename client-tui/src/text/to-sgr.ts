import type { ColorDepth } from './color-depth.js';
import { reduceColor } from './reduce-color.js';
import type { StyledLine, TextStyle } from './styled-line.js';

function colorCode(index: number, base: 30 | 40): string {
  if (index < 8) return String(base + index);
  if (index < 16) return String(base + 60 + index - 8);
  return `${base + 8};5;${index}`;
}

/**
 * The SGR parameters of a style at a colour depth (`1;2;3;38;5;214`...), empty for the
 * default style. Bold, dim, italic, underline, inverse and strikethrough each have their own code, so
 * reasoning (dim italic) and dim tool output look as they should.
 */
export function sgrParams(style: TextStyle | undefined, depth: ColorDepth = 256): string {
  if (style === undefined) return '';
  const codes: string[] = [];
  if (style.bold) codes.push('1');
  if (style.dim) codes.push('2');
  if (style.italic) codes.push('3');
  if (style.underline) codes.push('4');
  if (style.inverse) codes.push('7');
  if (style.strike) codes.push('9');
  const fg = style.fg === undefined ? undefined : reduceColor(style.fg, depth);
  if (fg !== undefined) codes.push(colorCode(fg, 30));
  const bg = style.bg === undefined ? undefined : reduceColor(style.bg, depth);
  if (bg !== undefined) codes.push(colorCode(bg, 40));
  return codes.join(';');
}

/**
 * Encodes a line as text with SGR sequences, reset after each styled run. Lines hold
 * sanitized text only, so SGR is the only escape sequence in the result.
 */
export function toSgr(line: StyledLine, depth: ColorDepth = 256): string {
  let out = '';
  for (const segment of line) {
    const params = sgrParams(segment.style, depth);
    out += params === '' ? segment.text : `\x1b[${params}m${segment.text}\x1b[0m`;
  }
  return out;
}
