import { highlightLines } from '@dsh/card-models';
import { scopeStyle, theme } from '../cards/theme.js';
import { sanitizeText } from '../text/sanitize-text.js';
import { seg, type Segment, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';

/**
 * Source lines as highlighted segments (card-models' highlight.js scopes in the client's
 * colours); an unknown or empty `lang` gives plain lines. Text is sanitized first.
 */
export function highlightedLines(lines: readonly string[], lang: string): Segment[][] {
  const clean = lines.map((line) => sanitizeText(line));
  return highlightLines(clean, lang).map((tokens) =>
    tokens.map((token) => seg(token.text, scopeStyle(token.scope))),
  );
}

/** The highlight.js name for a fence's info string (`ts {title=x}` -> `ts`). */
export function fenceLang(info: string): string {
  return (info.trim().split(/\s+/, 1)[0] ?? '').replace(/^\{?\.?/, '').replace(/\}$/, '');
}

/**
 * A fenced or indented code block: a frame row naming the language, then each line
 * highlighted behind a `│` gutter. A long line wraps behind the gutter (never to column
 * 0), its continuation rows two cells deeper than the line's own indentation.
 */
export function codeBlockLines(code: string, lang: string, width: number): StyledLine[] {
  const source = code.replace(/\n$/, '').split('\n');
  const highlighted = highlightedLines(source, lang);
  const label = sanitizeText(lang).replace(/\n/g, ' ');
  const out: StyledLine[] = [[seg(label === '' ? '┌─' : `┌─ ${label}`, theme.codeFrame)]];
  const gutter = seg('│ ', theme.codeFrame);
  const room = Math.max(1, width - 2);
  highlighted.forEach((line, i) => {
    const lead = /^ */.exec(source[i] ?? '')?.[0].length ?? 0;
    for (const row of wrapLine(line, room, lead + 2)) out.push([gutter, ...row]);
  });
  return out;
}
