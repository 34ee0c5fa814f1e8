/**
 * Positions inside the content of a JSON string (the bytes between its quotes): the
 * UTF-16 offset of given byte offsets, and whether each falls on a character boundary
 * (never inside an escape such as `\n` or a UTF-8 sequence).
 */
export interface SpanMarks {
  /** UTF-16 offset of each mark, or -1 when the mark is not on a character boundary. */
  readonly units: number[];
  /** UTF-16 length of the whole content. */
  readonly length: number;
}

/** Measures `marks` (absolute byte offsets, ascending) in the string content [start, end). */
export function spanMarks(
  buf: Uint8Array,
  start: number,
  end: number,
  marks: readonly number[],
): SpanMarks {
  const units = marks.map(() => -1);
  let m = 0;
  let length = 0;
  let i = start;
  while (i <= end) {
    while (m < marks.length && marks[m]! < i) m += 1;
    while (m < marks.length && marks[m] === i) {
      units[m] = length;
      m += 1;
    }
    if (i === end) break;
    const [bytes, count] = charAt(buf, i);
    i += bytes;
    length += count;
  }
  return { units, length };
}

/**
 * The decoded text of the string content between UTF-16 offsets `from` and `to`
 * (widened to character boundaries), and the offset it really starts at.
 */
export function spanText(
  buf: Uint8Array,
  start: number,
  end: number,
  from: number,
  to: number,
): { text: string; from: number } {
  let i = start;
  let units = 0;
  let byteFrom = -1;
  let unitsFrom = 0;
  while (i < end) {
    if (byteFrom < 0 && units >= from) {
      byteFrom = i;
      unitsFrom = units;
    }
    const [bytes, count] = charAt(buf, i);
    if (units + count > to) break;
    i += bytes;
    units += count;
  }
  if (byteFrom < 0) {
    byteFrom = i;
    unitsFrom = units;
  }
  const raw = Buffer.from(buf.buffer, buf.byteOffset + byteFrom, i - byteFrom).toString('utf8');
  return { text: JSON.parse(`"${raw}"`) as string, from: unitsFrom };
}

/** Bytes and UTF-16 units of the character (or escape) at byte `i` of JSON string content. */
function charAt(buf: Uint8Array, i: number): [number, number] {
  const c = buf[i]!;
  if (c === 0x5c) return buf[i + 1] === 0x75 ? [6, 1] : [2, 1];
  if (c < 0x80) return [1, 1];
  if (c >= 0xf0) return [4, 2];
  if (c >= 0xe0) return [3, 1];
  return [2, 1];
}
