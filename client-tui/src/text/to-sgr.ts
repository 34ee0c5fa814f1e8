import type { TerminalColor } from '@dsh/card-models';
import type { StyledLine, TextStyle } from './styled-line.js';

function colorCode(color: TerminalColor, base: 30 | 40): string | undefined {
  if (typeof color === 'number') {
    if (!Number.isInteger(color) || color < 0 || color > 255) return undefined;
    if (color < 8) return String(base + color);
    if (color < 16) return String(base + 60 + color - 8);
    return `${base + 8};5;${color}`;
  }
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(color);
  if (!match) return undefined;
  const [r, g, b] = [match[1], match[2], match[3]].map((hex) => parseInt(hex ?? '0', 16));
  return `${base + 8};2;${r};${g};${b}`;
}

function styleCodes(style: TextStyle): string[] {
  const codes: string[] = [];
  if (style.bold) codes.push('1');
  if (style.dim) codes.push('2');
  if (style.italic) codes.push('3');
  if (style.underline) codes.push('4');
  if (style.inverse) codes.push('7');
  const fg = style.fg === undefined ? undefined : colorCode(style.fg, 30);
  if (fg !== undefined) codes.push(fg);
  const bg = style.bg === undefined ? undefined : colorCode(style.bg, 40);
  if (bg !== undefined) codes.push(bg);
  return codes;
}

/**
 * Encodes a line for a blessed box with `tags: false`: its text with SGR sequences built
 * from the styles, reset after each styled run. The text of a line is sanitized before it
 * gets here, so SGR is the only escape sequence in the result.
 */
export function toSgr(line: StyledLine): string {
  let out = '';
  for (const segment of line) {
    const codes = segment.style === undefined ? [] : styleCodes(segment.style);
    out += codes.length === 0 ? segment.text : `\x1b[${codes.join(';')}m${segment.text}\x1b[0m`;
  }
  return out;
}
