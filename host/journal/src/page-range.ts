import type { LineResult } from './journal-line.js';

/** The default page size when a request says 0. */
export const defaultMaxMessages = 50;
/** The largest page size a request may ask for. */
export const maxMaxMessages = 1000;

/**
 * Most bytes of journal lines one page carries (half the 64 MiB largest response): a
 * page that would carry more holds fewer messages, never fewer than one.
 */
export const maxPageBytes = 32 * 1024 * 1024;

/** What `pageRange` needs from the journal index. */
export interface BoundaryIndex {
  messagesBefore(end: number): number;
  boundary(i: number): number;
  /** Bytes of the lines of events [from, to) that a read serves; without it, no byte budget. */
  servedBytes?(from: number, to: number): number;
}

/** The events [start, end) of a page. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Cuts the message-aligned page ending before `beforeSeq` (the tail when undefined):
 * with k boundaries before the end, the page starts at the `maxMessages`-th boundary
 * from the end, or at 0 when there are no more; a page over `maxPageBytes` starts at a
 * later boundary instead (the latest that keeps it under, or the last one). Validates
 * `beforeSeq` (0..length) and `maxMessages` (0 = 50, at most 1000).
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
  return { ok: true, value: { start: withinBudget(index, start, end, k, size), end } };
}

/** The page start moved to a later boundary while the page is over the byte budget. */
function withinBudget(
  index: BoundaryIndex,
  start: number,
  end: number,
  k: number,
  size: number,
): number {
  const bytes = index.servedBytes?.bind(index);
  if (bytes === undefined || k === 0 || bytes(start, end) <= maxPageBytes) return start;
  // Boundaries k-size.. k-1 (or 0.. k-1): the page shrinks as the start index grows.
  let lo = Math.max(0, k - size);
  let hi = k - 1;
  if (bytes(index.boundary(hi), end) > maxPageBytes) return index.boundary(hi);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bytes(index.boundary(mid), end) <= maxPageBytes) hi = mid;
    else lo = mid + 1;
  }
  return index.boundary(lo);
}
