import type { SnippetMatch } from './search-types.js';

/** The characters a JSON escape stands for, by the letter after the backslash. */
const escapes: Readonly<Record<string, string>> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '"': '"',
  '\\': '\\',
  '/': '/',
};

/**
 * A snippet of JSON text (a tool call's arguments, which the journal keeps as the JSON
 * the model sent) with its string escapes written out, so a hit in a command or in code
 * reads as the code (`ls -la` then a new line, not `ls -la\n`); the matches are moved
 * with the text. A window that starts inside an escape keeps that tail as it is.
 */
export function readableSnippet(
  snippet: string,
  matches: readonly SnippetMatch[],
): { snippet: string; matches: SnippetMatch[] } {
  let out = '';
  // at[i]: where the i-th character of `snippet` starts in `out` (at[length]: the end).
  const at: number[] = [];
  for (let i = 0; i < snippet.length;) {
    const escape = escapeAt(snippet, i);
    for (let k = 0; k < escape.length; k += 1) at.push(out.length);
    out += escape.text;
    i += escape.length;
  }
  at.push(out.length);
  const moved = matches
    .map((m) => ({ start: at[m.start] ?? out.length, end: at[m.end] ?? out.length }))
    .filter((m) => m.end > m.start);
  return { snippet: out, matches: moved };
}

/** The escape (or plain character) at `i`: what it stands for and how long it is. */
function escapeAt(text: string, i: number): { text: string; length: number } {
  const c = text[i]!;
  if (c !== '\\' || i + 1 >= text.length) return { text: c, length: 1 };
  const next = text[i + 1]!;
  const simple = escapes[next];
  if (simple !== undefined) return { text: simple, length: 2 };
  if (next === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
    return { text: String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)), length: 6 };
  }
  return { text: c, length: 1 };
}
