/** One line of a text: its first characters and its full length. */
export interface BoundedLine {
  /** At most `keepChars` characters of the line (all of it when shorter). */
  head: string;
  /** The line's full length in characters. */
  length: number;
}

/**
 * Splits streamed text into lines as `readline` does with `crlfDelay: Infinity` (`\r\n`,
 * `\n` and a lone `\r` end a line; a trailing line without an ending counts, an ending at
 * the very end adds no empty line), keeping at most `keepChars` characters of each line.
 * Memory stays bounded however long a line is: `readline` builds the whole line as one
 * string, which for a line of a few hundred megabytes exceeds V8's string limit.
 */
export async function* boundedLines(
  chunks: AsyncIterable<string>,
  keepChars: number,
): AsyncGenerator<BoundedLine> {
  let head = '';
  let length = 0;
  let afterReturn = false;
  let open = false;
  for await (const chunk of chunks) {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) {
        afterReturn = false;
        continue;
      }
      if (c === 10 && afterReturn && i === start) {
        // The `\n` of a `\r\n` split across chunks (or right after the `\r`): no new line.
        afterReturn = false;
        start = i + 1;
        continue;
      }
      const piece = chunk.slice(start, i);
      if (head.length < keepChars) head += piece.slice(0, keepChars - head.length);
      length += piece.length;
      yield { head, length };
      head = '';
      length = 0;
      open = false;
      afterReturn = c === 13;
      start = i + 1;
    }
    if (start < chunk.length) {
      const piece = chunk.slice(start);
      if (head.length < keepChars) head += piece.slice(0, keepChars - head.length);
      length += piece.length;
      open = true;
    }
  }
  if (open) yield { head, length };
}
