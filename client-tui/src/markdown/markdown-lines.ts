import MarkdownIt from 'markdown-it';
import type { StyledLine } from '../text/styled-line.js';
import { blockLines } from './block-lines.js';
import { createSegmentScanner, markdownSegments } from './markdown-segments.js';

// CommonMark plus tables and strikethrough; raw HTML stays text, no typographic rewrites.
const parser = new MarkdownIt('default', { html: false, linkify: false, typographer: false });

/** One part rendered: markdown-it's block tokens drawn at `width`. */
function renderPart(text: string, width: number): StyledLine[] {
  const tokens = parser.parse(text, {});
  return blockLines(tokens, 0, tokens.length - 1, width);
}

// Rendered parts by width and text, most recently used last: the final message of a
// stream finds the parts its partial already drew, and re-renders are cheap.
const partCache = new Map<string, StyledLine[]>();
const partCacheLimit = 512;

function cachedPart(text: string, width: number): StyledLine[] {
  const key = `${width}\u0000${text}`;
  const known = partCache.get(key);
  if (known !== undefined) {
    partCache.delete(key);
    partCache.set(key, known);
    return known;
  }
  const lines = renderPart(text, width);
  if (partCache.size >= partCacheLimit) {
    const oldest = partCache.keys().next().value;
    if (oldest !== undefined) partCache.delete(oldest);
  }
  partCache.set(key, lines);
  return lines;
}

function joinParts(parts: readonly (readonly StyledLine[])[]): StyledLine[] {
  const out: StyledLine[] = [];
  for (const part of parts) {
    if (part.length === 0) continue;
    if (out.length > 0) out.push([]);
    for (const line of part) out.push(line);
  }
  return out;
}

/**
 * Assistant Markdown as styled lines at `width`: headings, emphasis, lists, block quotes,
 * tables, fenced code with syntax highlighting behind a gutter, links with their URL. The
 * text is drawn part by part (`markdownSegments`), each part memoised.
 */
export function markdownLines(text: string, width: number): StyledLine[] {
  return joinParts(markdownSegments(text).map((part) => cachedPart(part, width)));
}

/** Draws one growing Markdown text (a streamed message) at a cost that follows the new text. */
export interface MarkdownStream {
  /** The lines of `text`, which extends the text of the previous call. */
  lines(text: string, width: number): StyledLine[];
}

/**
 * Creates a stream renderer: the parts that can no longer change (every part but the last)
 * are drawn once, only the last part is drawn again for each new chunk.
 */
export function createMarkdownStream(): MarkdownStream {
  const scanner = createSegmentScanner();
  let width = -1;
  let done: StyledLine[] = [];
  let doneParts = 0;
  let doneEnd = 0;
  return {
    lines(text, nextWidth) {
      const starts = scanner.scan(text);
      if (nextWidth !== width || starts.length < doneParts || text.length < doneEnd) {
        width = nextWidth;
        done = [];
        doneParts = 0;
        doneEnd = 0;
      }
      while (doneParts < starts.length) {
        const end = starts[doneParts] as number;
        const part = cachedPart(text.slice(doneEnd, end), width);
        if (part.length > 0) {
          if (done.length > 0) done.push([]);
          for (const line of part) done.push(line);
        }
        doneEnd = end;
        doneParts++;
      }
      const tail = renderPart(text.slice(doneEnd), width);
      if (tail.length === 0) return done.slice();
      return done.length === 0 ? tail : [...done, [], ...tail];
    },
  };
}
