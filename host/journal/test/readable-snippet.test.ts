import { describe, expect, it } from 'vitest';
import { readableSnippet } from '../src/search/readable-snippet.js';

describe('readableSnippet()', () => {
  // `found` is the match as the host finds it in the escaped text; `reads` what it becomes.
  it.each([
    {
      name: 'a new line and a tab',
      snippet: 'ls -la\\n\\tgrep x',
      found: 'grep',
      reads: 'grep',
      readable: 'ls -la\n\tgrep x',
    },
    {
      name: 'quotes and backslashes',
      snippet: 'echo \\"a\\\\b\\"',
      found: 'a\\\\b',
      reads: 'a\\b',
      readable: 'echo "a\\b"',
    },
    {
      name: 'a \\u escape',
      snippet: 'caf\\u00e9 bar',
      found: 'caf\\u00e9',
      reads: 'café',
      readable: 'café bar',
    },
    {
      name: 'a match over an escape',
      snippet: 'one\\ntwo',
      found: '\\ntwo',
      reads: '\ntwo',
      readable: 'one\ntwo',
    },
    {
      name: 'a window cut inside an escape',
      snippet: 'n rest\\',
      found: 'rest',
      reads: 'rest',
      readable: 'n rest\\',
    },
    {
      name: 'no escape at all',
      snippet: 'plain text',
      found: 'text',
      reads: 'text',
      readable: 'plain text',
    },
  ])('$name', ({ snippet, found, reads, readable }) => {
    const start = snippet.indexOf(found);
    expect(start).toBeGreaterThanOrEqual(0);
    const out = readableSnippet(snippet, [{ start, end: start + found.length }]);
    expect(out.snippet).toBe(readable);
    expect(out.matches.map((m) => out.snippet.slice(m.start, m.end))).toEqual([reads]);
  });
});
