import hljs from 'highlight.js/lib/common';
import { highlightLinesWith, type HighlightToken } from './highlight-tokens.js';

/**
 * Splits source lines into scoped tokens with highlight.js (its common languages), the
 * same in Node and the browser, so both clients colour code alike without HTML.
 * An empty or unknown `lang` gives one plain token per line. Never throws.
 */
export function highlightLines(lines: readonly string[], lang: string): HighlightToken[][] {
  return highlightLinesWith(hljs, lines, lang);
}
