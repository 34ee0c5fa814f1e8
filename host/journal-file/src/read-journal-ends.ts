import { open, type FileHandle } from 'node:fs/promises';
import { decodeHeaderLine, type JournalHeader } from '@dsh/journal';

const blockSize = 64 * 1024;
const maxHeaderBytes = 1024 * 1024;

/** What the two ends of a journal file tell without reading the events between them. */
export interface JournalEnds {
  /** Undefined when the header line is missing or malformed. */
  readonly header: JournalHeader | undefined;
  /** Undefined when the last lines do not settle the count: open the journal to know. */
  readonly tail: { readonly length: number; readonly lastTime: Date | undefined } | undefined;
}

/**
 * Reads a journal's header line and its last complete line, seeking from the end, so
 * listing costs two small reads per file whatever its size. Seqs are contiguous from
 * 0, so the last line's seq gives the event count; an unparseable last line is taken
 * as torn and the line before it is used instead.
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

async function readHeaderLine(fd: FileHandle, size: number) {
  const length = Math.min(size, maxHeaderBytes);
  const buffer = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buffer, done, Math.min(blockSize, length - done), done);
    if (bytesRead === 0) break;
    const newline = buffer.subarray(done, done + bytesRead).indexOf(10);
    done += bytesRead;
    if (newline !== -1) {
      const at = done - bytesRead + newline;
      return { line: buffer.toString('utf8', 0, at), end: at + 1 };
    }
  }
  return undefined;
}

async function readTail(
  fd: FileHandle,
  headerEnd: number,
  size: number,
): Promise<JournalEnds['tail']> {
  let position = size;
  let tail = Buffer.alloc(0);
  while (position > headerEnd && countNewlines(tail) < 3) {
    const n = Math.min(blockSize, position - headerEnd);
    position -= n;
    const chunk = Buffer.alloc(n);
    await fd.read(chunk, 0, n, position);
    tail = Buffer.concat([chunk, tail]);
  }
  const lines = tail.toString('utf8').split('\n');
  lines.pop(); // The unterminated rest: empty, or a torn line.
  if (position > headerEnd) lines.shift(); // May start mid-line.
  for (let i = lines.length - 1; i >= Math.max(0, lines.length - 2); i -= 1) {
    const fields = parseObject(lines[i]!);
    if (fields === undefined) {
      if (i === lines.length - 1) continue; // A torn last line.
      return undefined;
    }
    const { seq, time } = fields;
    const date = typeof time === 'string' ? new Date(time) : undefined;
    if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0) return undefined;
    if (date === undefined || Number.isNaN(date.getTime())) return undefined;
    return { length: seq + 1, lastTime: date };
  }
  return position === headerEnd && lines.length <= 1
    ? { length: 0, lastTime: undefined }
    : undefined;
}

function countNewlines(buffer: Buffer): number {
  let count = 0;
  for (let i = buffer.indexOf(10); i !== -1; i = buffer.indexOf(10, i + 1)) count += 1;
  return count;
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
