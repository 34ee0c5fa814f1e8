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

/** A checked page request: the page ends before `end` and holds up to `size` messages. */
export interface PageRequest {
  readonly end: number;
  readonly size: number;
}

/**
 * Checks a page request against a journal of `length` events, the one place its limits
 * live: `beforeSeq` in 0..length (undefined for the tail), `maxMessages` in 0..1000
 * (0 = 50). The error names the range and what to do instead.
 */
export function checkPageRequest(
  sessionId: string,
  length: number,
  beforeSeq: number | undefined,
  maxMessages: number,
): LineResult<PageRequest> {
  if (beforeSeq !== undefined && !(Number.isInteger(beforeSeq) && beforeSeq >= 0)) {
    return {
      ok: false,
      error: `beforeSeq ${beforeSeq} is not a seq: use 0..${length}, or leave it out for the tail page`,
    };
  }
  if (beforeSeq !== undefined && beforeSeq > length) {
    return {
      ok: false,
      error:
        `beforeSeq ${beforeSeq} is past the end of session ${sessionId}: it has ${length} ` +
        `events; use 0..${length}, or leave it out for the tail page`,
    };
  }
  if (!Number.isInteger(maxMessages) || maxMessages < 0 || maxMessages > maxMaxMessages) {
    return {
      ok: false,
      error:
        `maxMessages ${maxMessages} is out of range: use 1..${maxMaxMessages} ` +
        `(0 = ${defaultMaxMessages}) and page on with beforeSeq`,
    };
  }
  return {
    ok: true,
    value: { end: beforeSeq ?? length, size: maxMessages === 0 ? defaultMaxMessages : maxMessages },
  };
}

/** The events [start, end) of a page. */
export interface PageRange {
  readonly start: number;
  readonly end: number;
}

/**
 * Cuts the message-aligned page of up to `size` messages ending before `end`, from
 * `starts`, the last `size + 1` message starts below `end` (ascending; fewer when there
 * are no more): the page starts at the `size`-th start from the end, or at 0 when there
 * are no more. A page whose `bytes` pass `maxPageBytes` starts at a later message start
 * instead (the earliest that keeps it under, or the last one).
 */
export async function pageRange(
  starts: readonly number[],
  end: number,
  size: number,
  bytes: (from: number, to: number) => Promise<number>,
): Promise<PageRange> {
  const more = starts.length > size;
  const candidates = more ? starts.slice(starts.length - size) : starts;
  const start = more ? candidates[0]! : 0;
  if (candidates.length === 0 || (await bytes(start, end)) <= maxPageBytes) return { start, end };
  // The page shrinks as its start moves to a later candidate.
  let lo = 0;
  let hi = candidates.length - 1;
  if ((await bytes(candidates[hi]!, end)) > maxPageBytes) return { start: candidates[hi]!, end };
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((await bytes(candidates[mid]!, end)) <= maxPageBytes) hi = mid;
    else lo = mid + 1;
  }
  return { start: candidates[lo]!, end };
}
