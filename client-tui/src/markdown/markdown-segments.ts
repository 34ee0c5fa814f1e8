/**
 * Finds where a Markdown text splits into independent parts: a part starts at a line
 * after a blank line, outside a fenced code block, that begins at column 0 with neither a
 * space nor a list marker. No Markdown construct continues across such a line (lists,
 * quotes and indented code need indentation or a marker to go on after a blank line), so
 * rendering the parts one by one gives what rendering the whole text gives, except that a
 * reference-style link cannot use a definition from another part.
 *
 * The scanner is incremental: text that only grew since the last call is scanned from
 * where the last complete line ended, so following a stream costs O(new text).
 */
export interface SegmentScanner {
  /** Offsets where parts start, after the first part (which starts at 0), ascending. */
  scan(text: string): readonly number[];
}

const fenceOpen = /^ {0,3}(`{3,}|~{3,})/;
const fenceClose = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
const blank = /^[ \t]*$/;
const continues = /^(?:[ \t]|[-+*](?:[ \t]|$)|\d{1,9}[.)](?:[ \t]|$))/;

/** Creates a scanner for one growing text. */
export function createSegmentScanner(): SegmentScanner {
  let scanned = 0;
  let previousBlank = false;
  let fence: { char: string; length: number } | undefined;
  let boundaries: number[] = [];
  const reset = () => {
    scanned = 0;
    previousBlank = false;
    fence = undefined;
    boundaries = [];
  };
  return {
    scan(text) {
      // Text that did not grow from what was scanned (another text) starts over.
      if (text.length < scanned || (scanned > 0 && text.charCodeAt(scanned - 1) !== 10)) reset();
      let start = scanned;
      for (let end = text.indexOf('\n', start); end >= 0; end = text.indexOf('\n', start)) {
        const line = text.slice(start, end);
        if (fence !== undefined) {
          const close = fenceClose.exec(line);
          const marker = close?.[1];
          if (marker !== undefined && marker[0] === fence.char && marker.length >= fence.length) {
            fence = undefined;
          }
          previousBlank = false;
        } else {
          const isBlank = blank.test(line);
          if (!isBlank && previousBlank && !continues.test(line)) boundaries.push(start);
          const open = fenceOpen.exec(line)?.[1];
          if (
            open !== undefined &&
            !(open[0] === '`' && line.slice(line.indexOf(open) + open.length).includes('`'))
          ) {
            fence = { char: open[0] as string, length: open.length };
          }
          previousBlank = isBlank;
        }
        start = end + 1;
      }
      scanned = start;
      return boundaries;
    },
  };
}

/** The independent parts of a whole text (see `createSegmentScanner`). */
export function markdownSegments(text: string): string[] {
  // The last line counts too: a whole text is complete.
  const starts = [0, ...createSegmentScanner().scan(text.endsWith('\n') ? text : `${text}\n`)];
  return starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
}
