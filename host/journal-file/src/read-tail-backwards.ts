import { open, type FileHandle } from 'node:fs/promises';
import type { SessionEvent } from '@dsh/gen/events';
import {
  checkEventHead,
  decodeHeaderLine,
  eventFromHead,
  type JournalPage,
  maxEventLineBytes,
  maxPageBytes,
  messageTypes,
} from '@dsh/journal';
import { readAt, readHeaderLine } from './read-journal-ends.js';

/** Bytes read at a time, walking from the end of the file towards its start. */
const chunkBytes = 1 << 20;

/** One complete event line found walking backwards, decoded. */
interface TailLine {
  readonly event: SessionEvent;
  readonly isMessage: boolean;
  /** The line's bytes with its newline: what `JournalLog.bytes` counts. */
  readonly bytes: number;
}

/**
 * The tail page of a journal file read backwards from its end, without its index: what
 * a host serves while it builds that index (`baselinePending`, no baselines). The page
 * is cut as `pageRange` cuts it (the last `maxMessages` messages, or from event 0 when
 * there are no more; a later message start when the lines pass `maxPageBytes`), so it
 * equals the page the index gives. A last line that is torn (no newline, or not JSON) is
 * left out, as the scan that opens the journal leaves it. Undefined when this cannot
 * be answered from the end alone: a bad header or line, a line over the line limit, or
 * no message start within the page budget; the caller then waits for the open, which
 * reports any fault.
 */
export async function readTailBackwards(
  path: string,
  sessionId: string,
  maxMessages: number,
): Promise<JournalPage | undefined> {
  const fd = await open(path, 'r');
  try {
    const size = (await fd.stat()).size;
    const head = await readHeaderLine(fd, size);
    const header = head === undefined ? undefined : decodeHeaderLine(head.line);
    if (head === undefined || !header?.ok || header.value.sessionId !== sessionId) return undefined;
    const lines = await walkBack(fd, head.end, size, maxMessages);
    if (lines === undefined) return undefined;
    const start = pageStart(lines.found, lines.all, maxMessages);
    if (start === undefined) return undefined;
    const events = lines.found
      .slice(0, start + 1)
      .reverse()
      .map((line) => line.event);
    return {
      events,
      hasMore: (events[0]?.seq ?? 0) > 0,
      baseline: undefined,
      endBaseline: undefined,
      baselinePending: true,
    };
  } finally {
    await fd.close();
  }
}

/**
 * The lines from the end back to where the page can start (newest first): until the
 * `maxMessages + 1`-th message start, the body's first line (`all`), or past the byte
 * budget. Undefined on a line that does not decode in its place.
 */
async function walkBack(
  fd: FileHandle,
  bodyStart: number,
  size: number,
  maxMessages: number,
): Promise<{ found: TailLine[]; all: boolean } | undefined> {
  const found: TailLine[] = [];
  let messages = 0;
  let bytes = 0;
  let expected: number | undefined;
  for await (const line of linesBackwards(fd, bodyStart, size)) {
    if (line === 'too_long') return undefined;
    const decoded = decodeLine(line, expected);
    // Only the last line may be torn; any other bad line is the open's to report.
    if (decoded === 'torn' && expected === undefined && found.length === 0) continue;
    if (decoded === 'torn' || decoded === undefined) return undefined;
    found.push(decoded);
    expected = decoded.event.seq - 1;
    bytes += decoded.bytes;
    if (decoded.isMessage) messages += 1;
    if (messages > maxMessages || bytes > maxPageBytes) return { found, all: false };
  }
  if (expected !== undefined && expected !== -1) return undefined;
  return { found, all: true };
}

/**
 * Index in `found` (newest first) of the page's first event, cut as `pageRange` cuts it:
 * the oldest of the newest `maxMessages` message starts when there are more, else event
 * 0; past `maxPageBytes`, the oldest message start that keeps the page within it, or the
 * newest one. Undefined when the walk ran out of budget before any message start.
 */
function pageStart(
  found: readonly TailLine[],
  all: boolean,
  maxMessages: number,
): number | undefined {
  const starts: number[] = [];
  const served: number[] = [];
  let total = 0;
  found.forEach((line, i) => {
    total += line.bytes;
    served.push(total);
    if (line.isMessage) starts.push(i);
  });
  const candidates = starts.slice(0, maxMessages);
  const start =
    starts.length > maxMessages ? candidates.at(-1) : all ? found.length - 1 : undefined;
  if (start !== undefined && (candidates.length === 0 || served[start]! <= maxPageBytes)) {
    return start;
  }
  let fits = candidates[0];
  for (const candidate of candidates) if (served[candidate]! <= maxPageBytes) fits = candidate;
  return fits;
}

/**
 * Decodes one line at seq `expected` (at its own seq for the last line): 'torn' when it
 * is not JSON, undefined when its head does not hold.
 */
function decodeLine(line: Buffer, expected: number | undefined): TailLine | 'torn' | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line.toString('utf8'));
  } catch {
    return 'torn';
  }
  const own = (parsed as { seq?: unknown } | null)?.seq;
  const seq = expected ?? (typeof own === 'number' && Number.isInteger(own) ? own : -1);
  if (seq < 0) return undefined;
  const head = checkEventHead(parsed, seq);
  if (!head.ok) return undefined;
  return {
    event: eventFromHead(head.value),
    isMessage: messageTypes.has(head.value.type),
    bytes: line.length + 1,
  };
}

/**
 * The complete lines of the body `[bodyStart, size)`, last first, read in 1 MiB chunks
 * from the end; bytes after the last newline (a torn line) are skipped. A line, or a torn
 * tail, over the line limit yields 'too_long' and ends the walk.
 */
async function* linesBackwards(
  fd: FileHandle,
  bodyStart: number,
  size: number,
): AsyncGenerator<Buffer | 'too_long'> {
  let later: Buffer[] = []; // The parts of the line being gathered, the latest first.
  let gathered = 0;
  let complete = false; // True once the newline ending the gathered line is seen.
  for (let end = size; end > bodyStart;) {
    const from = Math.max(bodyStart, end - chunkBytes);
    const chunk = await readAt(fd, from, end - from);
    let stop = chunk.length;
    while (stop > 0) {
      const newline = chunk.lastIndexOf(10, stop - 1);
      if (newline === -1) break;
      if (complete) yield lineOf(chunk.subarray(newline + 1, stop), later, gathered);
      complete = true;
      later = [];
      gathered = 0;
      stop = newline;
    }
    later.push(chunk.subarray(0, stop));
    gathered += stop;
    if (gathered > maxEventLineBytes) {
      yield 'too_long';
      return;
    }
    end = from;
  }
  if (complete && gathered > 0) yield lineOf(Buffer.alloc(0), later, gathered);
}

/** The line whose start is `first` and whose rest is `later` (latest first); 'too_long' past the limit. */
function lineOf(first: Buffer, later: readonly Buffer[], gathered: number): Buffer | 'too_long' {
  if (first.length + gathered > maxEventLineBytes) return 'too_long';
  return Buffer.concat([first, ...later.toReversed()]);
}
