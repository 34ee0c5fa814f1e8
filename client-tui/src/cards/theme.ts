import type { TextStyle } from '../text/styled-line.js';

/**
 * The client's styles in 16-colour terms (palette 0-15), so they read the same in 16- and
 * 256-colour terminals and respect the person's terminal theme.
 */
export const theme = {
  dim: { dim: true },
  bold: { bold: true },
  title: { bold: true },
  path: { fg: 6 },
  running: { fg: 3 },
  ok: { fg: 2 },
  error: { fg: 1 },
  stopped: { fg: 3 },
  added: { fg: 2 },
  removed: { fg: 1 },
  lineNumber: { dim: true },
  hunkSeparator: { fg: 4, dim: true },
  user: { fg: 6, bold: true },
  assistant: { fg: 5, bold: true },
  reasoning: { dim: true, italic: true },
  notice: { fg: 3 },
  link: { fg: 4, underline: true },
  pending: { fg: 0, bg: 3, bold: true },
  waiting: { fg: 3, bold: true },
  key: { bold: true, fg: 3 },
  heading1: { bold: true, underline: true },
  heading: { bold: true },
  heading3: { bold: true, italic: true },
  code: { fg: 6 },
  codeFrame: { dim: true },
  quote: { dim: true },
  listMarker: { fg: 5 },
  linkUrl: { dim: true },
  tableRule: { dim: true },
} as const satisfies Record<string, TextStyle>;

/** Colours of highlight.js scopes (the part before the first dot decides). */
const scopeStyles: Readonly<Record<string, TextStyle>> = {
  keyword: { fg: 5 },
  built_in: { fg: 6 },
  type: { fg: 6 },
  literal: { fg: 5 },
  number: { fg: 3 },
  string: { fg: 2 },
  regexp: { fg: 2 },
  comment: { dim: true, italic: true },
  doctag: { dim: true },
  meta: { fg: 4 },
  title: { fg: 4, bold: true },
  params: {},
  attr: { fg: 6 },
  attribute: { fg: 6 },
  name: { fg: 4 },
  tag: { fg: 4 },
  'selector-tag': { fg: 4 },
  variable: { fg: 3 },
  property: { fg: 6 },
  symbol: { fg: 3 },
  addition: { fg: 2 },
  deletion: { fg: 1 },
};

/** The style of a highlight.js scope such as `title.function`; undefined for plain text. */
export function scopeStyle(scope: string | undefined): TextStyle | undefined {
  if (scope === undefined) return undefined;
  return scopeStyles[scope] ?? scopeStyles[scope.split('.')[0] ?? ''];
}
