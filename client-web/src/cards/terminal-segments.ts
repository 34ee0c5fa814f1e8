import type { TerminalColor, TerminalLine, TerminalSpan } from '@dsh/card-models';

/** A run of terminal text with the classes and inline colours that draw its style. */
export interface TerminalSegment {
  readonly text: string;
  readonly classes: readonly string[];
  readonly style: Readonly<Record<string, string>>;
  /** False for text in the default style, drawn without a span. */
  readonly styled: boolean;
}

const cubeLevels = [0, 95, 135, 175, 215, 255] as const;

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;
}

/**
 * The CSS colour of a palette index 16-255 (xterm's 6x6x6 cube and grey ramp) or of a
 * `#rrggbb` true colour; undefined for anything else. Indexes 0-15 follow the theme.
 */
export function paletteColor(color: TerminalColor): string | undefined {
  if (typeof color === 'string') return /^#[0-9a-f]{6}$/i.test(color) ? color : undefined;
  if (!Number.isInteger(color) || color < 16 || color > 255) return undefined;
  if (color >= 232) {
    const grey = 8 + (color - 232) * 10;
    return hex(grey, grey, grey);
  }
  const n = color - 16;
  const level = (i: number) => cubeLevels[i] ?? 0;
  return hex(level(Math.floor(n / 36)), level(Math.floor(n / 6) % 6), level(n % 6));
}

/** Theme-following colour for palette indexes 0-15 (a CSS variable), else the fixed colour. */
function cssColor(color: TerminalColor | undefined): string | undefined {
  if (color === undefined) return undefined;
  if (typeof color === 'number' && Number.isInteger(color) && color >= 0 && color < 16) {
    return `var(--dsh-ansi-${color})`;
  }
  return paletteColor(color);
}

function styled(text: string, span: TerminalSpan): TerminalSegment {
  const classes: string[] = [];
  if (span.bold) classes.push('dsh-t-bold');
  if (span.italic) classes.push('dsh-t-italic');
  if (span.underline) classes.push('dsh-t-underline');
  if (span.dim) classes.push('dsh-t-dim');
  let fg = cssColor(span.fg);
  let bg = cssColor(span.bg);
  if (span.inverse) {
    [fg, bg] = [bg ?? 'var(--dsh-term-bg)', fg ?? 'var(--dsh-term-fg)'];
  }
  const style: Record<string, string> = {};
  if (fg) style.color = fg;
  if (bg) style.backgroundColor = bg;
  return { text, classes, style, styled: classes.length > 0 || Object.keys(style).length > 0 };
}

/**
 * Splits a replayed terminal line into drawable segments: unstyled gaps as plain text,
 * each span with its bold/italic/underline/dim classes and colours (inverse swapped).
 */
export function terminalSegments(line: TerminalLine): TerminalSegment[] {
  const segments: TerminalSegment[] = [];
  let at = 0;
  const plain = (end: number) => {
    if (end > at)
      segments.push({ text: line.text.slice(at, end), classes: [], style: {}, styled: false });
  };
  for (const span of line.spans) {
    const start = Math.max(at, span.start);
    const end = Math.min(line.text.length, span.end);
    if (end <= start) continue;
    plain(start);
    segments.push(styled(line.text.slice(start, end), span));
    at = end;
  }
  plain(line.text.length);
  return segments;
}
