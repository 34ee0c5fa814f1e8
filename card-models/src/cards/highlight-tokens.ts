import type { HLJSApi } from 'highlight.js';

/** A run of text with the highlight.js scope it belongs to (`keyword`, `title.function`...). */
export interface HighlightToken {
  readonly text: string;
  /** The innermost scope; undefined for plain text. */
  readonly scope: string | undefined;
}

const entities: Readonly<Record<string, string>> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#x27;': "'",
  '&#39;': "'",
};

/**
 * `highlightLines` with a given highlight.js instance, for a client that registers only
 * the languages it loaded (the web client loads them lazily); a language the instance
 * does not know gives plain tokens. Never throws.
 */
export function highlightLinesWith(
  highlighter: Pick<HLJSApi, 'getLanguage' | 'highlight'>,
  lines: readonly string[],
  lang: string,
): HighlightToken[][] {
  const plain = () => lines.map((line) => (line === '' ? [] : [{ text: line, scope: undefined }]));
  if (lang === '' || !highlighter.getLanguage(lang)) return plain();
  let html: string;
  try {
    html = highlighter.highlight(lines.join('\n'), { language: lang, ignoreIllegals: true }).value;
  } catch {
    return plain();
  }
  return tokensFromHtml(html, lines.length);
}

/** Reads highlight.js output (spans with `hljs-` classes, escaped text) back into token lines. */
function tokensFromHtml(html: string, lineCount: number): HighlightToken[][] {
  const result: HighlightToken[][] = [[]];
  const scopes: (string | undefined)[] = [];
  const push = (text: string) => {
    const scope = scopes[scopes.length - 1];
    text.split('\n').forEach((part, i) => {
      if (i > 0) result.push([]);
      if (part !== '') result[result.length - 1]?.push({ text: part, scope });
    });
  };
  const tagPattern = /<span class="([^"]*)">|<\/span>/g;
  let at = 0;
  for (let match = tagPattern.exec(html); match; match = tagPattern.exec(html)) {
    push(unescape(html.slice(at, match.index)));
    if (match[1] === undefined) scopes.pop();
    else scopes.push(scopeName(match[1]) ?? scopes[scopes.length - 1]);
    at = tagPattern.lastIndex;
  }
  push(unescape(html.slice(at)));
  while (result.length < lineCount) result.push([]);
  return result.slice(0, Math.max(lineCount, 0));
}

/**
 * `hljs-title function_` -> `title.function`; a span without an `hljs-` class (an
 * embedded language such as `language-css`) has no scope of its own.
 */
function scopeName(classes: string): string | undefined {
  const parts = classes.split(/\s+/).filter((c) => c !== '');
  const head = parts[0];
  if (!head?.startsWith('hljs-') || head === 'hljs-') return undefined;
  return [head.slice(5), ...parts.slice(1).map((p) => p.replace(/_+$/, ''))].join('.');
}

function unescape(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#x27|#39);/g, (entity) => entities[entity] ?? entity);
}
