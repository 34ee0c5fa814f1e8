import type { LineResult } from './journal-line.js';

/** The default page size when a request says 0. */
export const defaultMaxMessages = 50;
/** The largest page size a request may ask for. */
export const maxMaxMessages = 1000;

/** What `pageRange` needs from the journal index. */
export interface BoundaryIndex {
  messagesBefore(end: number): number;
  boundary(i: number): number;
}

/** The events [start, end) of a page. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Cuts the message-aligned page ending before `beforeSeq` (the tail when undefined):
 * with k boundaries before the end, the page starts at the `maxMessages`-th boundary
 * from the end, or at 0 when there are no more. Validates `beforeSeq` (0..length) and
 * `maxMessages` (0 = 50, at most 1000).
 */
export function pageRange(
  index: BoundaryIndex,
  length: number,
  beforeSeq: number | undefined,
  maxMessages: number,
): LineResult<PageRange> {
  if (beforeSeq !== undefined && !(Number.isInteger(beforeSeq) && beforeSeq >= 0)) {
    return { ok: false, error: `beforeSeq ${beforeSeq} is not a seq: use 0..${length}` };
  }
  if (beforeSeq !== undefined && beforeSeq > length) {
    return {
      ok: false,
      error: `beforeSeq ${beforeSeq} is past the journal's end: use 0..${length}`,
    };
  }
  if (!Number.isInteger(maxMessages) || maxMessages < 0 || maxMessages > maxMaxMessages) {
    return {
      ok: false,
      error: `maxMessages ${maxMessages} is out of range: use 1..${maxMaxMessages} (0 = ${defaultMaxMessages})`,
    };
  }
  const size = maxMessages === 0 ? defaultMaxMessages : maxMessages;
  const end = beforeSeq ?? length;
  const k = index.messagesBefore(end);
  const start = k <= size ? 0 : index.boundary(k - size);
  return { ok: true, value: { start, end } };
}
