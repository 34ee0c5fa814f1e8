import { open, type FileHandle } from 'node:fs/promises';
import { decodeHeaderLine, type JournalHeader } from '@dsh/journal';

const blockSize = 64 * 1024;
/** Most bytes read at either end of a journal file; beyond it, open the journal. */
export const maxEndBytes = 1024 * 1024;

/** What the two ends of a journal file tell without reading the events between them. */
export interface JournalEnds {
  /** Undefined when the header line is missing or malformed. */
  readonly header: JournalHeader | undefined;
  /** Undefined when the last lines do not settle the count: open the journal to know. */
  readonly tail: { readonly length: number; readonly lastTime: Date | undefined } | undefined;
}

/**
 * Reads a journal's header line and its last complete line, seeking from the end, so
 * listing reads at most `maxEndBytes` at each end whatever the file size (usually one
 * 64 KiB block each). Seqs are contiguous from 0, so the last line's seq gives the event
 * count; an unparseable last line is taken as torn and the line before it is used
 * instead. A line that does not fit leaves `tail` undefined.
 */
export async function readJournalEnds(path: string, sessionId: string): Promise<JournalEnds> {
  const fd = await open(path, 'r');
  try {
    const size = (await fd.stat()).size;
    const head = await readHeaderLine(fd, size);
    if (head === undefined) return { header: undefined, tail: undefined };
    const decoded = decodeHeaderLine(head.line);
    if (!decoded.ok || decoded.value.sessionId !== sessionId) {
      return { header: undefined, tail: undefined };
    }
    return { header: decoded.value, tail: await readTail(fd, head.end, size) };
  } finally {
    await fd.close();
  }
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
export async function readAt(fd: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}

/** The header line (line 1) and the offset just past its newline; undefined past `maxEndBytes`. */
export async function readHeaderLine(
  fd: FileHandle,
  size: number,
): Promise<{ line: string; end: number } | undefined> {
  let read = Buffer.alloc(0);
  while (read.length < Math.min(size, maxEndBytes)) {
    const more = await readAt(fd, read.length, Math.min(blockSize, maxEndBytes - read.length));
    if (more.length === 0) break;
    const newline = more.indexOf(10);
    if (newline !== -1) {
      const at = read.length + newline;
      return {
        line: Buffer.concat([read, more.subarray(0, newline)]).toString('utf8'),
        end: at + 1,
      };
    }
    read = Buffer.concat([read, more]);
  }
  return undefined;
}

/**
 * The count and last time from the last complete lines, reading backwards in a window
 * that doubles from 64 KiB up to `maxEndBytes` until it holds the start of the line it
 * needs.
 */
async function readTail(
  fd: FileHandle,
  headerEnd: number,
  size: number,
): Promise<JournalEnds['tail']> {
  const body = size - headerEnd;
  let window = Buffer.alloc(0);
  for (let want = Math.min(blockSize, body); ; want = Math.min(want * 2, body, maxEndBytes)) {
    const front = await readAt(fd, size - want, want - window.length);
    window = Buffer.concat([front, window]);
    const settled = settle(window, size - want === headerEnd);
    if (settled !== 'more') return settled;
    if (want >= Math.min(body, maxEndBytes)) return undefined;
  }
}

/**
 * Reads the tail from the last one or two complete lines of `window` (the file's last
 * bytes; `atBody` when it starts right after the header): 'more' when the line it needs
 * starts before the window.
 */
function settle(window: Buffer, atBody: boolean): JournalEnds['tail'] | 'more' {
  const last = lastLines(window, atBody);
  if (last === 'more') return 'more';
  const { lines, all } = last;
  for (let i = 0; i < lines.length; i += 1) {
    const fields = parseObject(lines[i]!);
    if (fields === undefined) {
      if (i === 0) continue; // A torn last line.
      return undefined;
    }
    const { seq, time } = fields;
    const date = typeof time === 'string' ? new Date(time) : undefined;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return undefined;
    if (date === undefined || Number.isNaN(date.getTime())) return undefined;
    return { length: seq + 1, lastTime: date };
  }
  // No line, or one torn line and nothing before it: an empty journal.
  if (all && lines.length <= 1) return { length: 0, lastTime: undefined };
  return all ? undefined : 'more';
}

/**
 * The last two complete lines of `window`, newest first, whose starts lie in it; `all`
 * when they are every complete line of the body. 'more' when not even the last line
 * starts in the window.
 */
function lastLines(window: Buffer, atBody: boolean): { lines: string[]; all: boolean } | 'more' {
  const lines: string[] = [];
  let stop = window.lastIndexOf(10); // The newline that ends the line being cut.
  if (stop === -1) return atBody ? { lines, all: true } : 'more';
  while (lines.length < 2) {
    const start = stop === 0 ? -1 : window.lastIndexOf(10, stop - 1);
    if (start === -1 && !atBody) return lines.length === 0 ? 'more' : { lines, all: false };
    lines.push(window.toString('utf8', start + 1, stop));
    if (start === -1) return { lines, all: true };
    stop = start;
  }
  return { lines, all: false };
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    // Not JSON: the caller decides whether the line is torn.
  }
  return undefined;
}
