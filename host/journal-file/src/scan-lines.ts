import type { FileHandle } from 'node:fs/promises';

const chunkSize = 1 << 20;

/** Where a line scan stopped: the byte after the last newline seen, and the file size read. */
export interface ScanEnd {
  /** Offset just past the last complete (newline-terminated) line. */
  readonly end: number;
  /** Offset where reading stopped (the file size unless `onLine` stopped the scan). */
  readonly size: number;
  readonly stopped: boolean;
}

/**
 * Streams the file from `from` in 1 MiB chunks and calls `onLine` with each complete
 * line (without its newline) and its byte offset; returning false stops the scan. The
 * line buffer is reused after the call returns: copy or decode it inside `onLine`.
 * Bytes after the last newline are not passed: the caller sees them as `size - end`.
 */
export async function scanLines(
  fd: FileHandle,
  from: number,
  onLine: (line: Buffer, offset: number) => boolean,
): Promise<ScanEnd> {
  const cutter = new LineCutter(from);
  let position = from;
  for await (const chunk of readChunks(fd, from)) {
    const stoppedAt = cutter.cut(chunk, onLine);
    if (stoppedAt !== -1) return { end: cutter.end, size: position + stoppedAt, stopped: true };
    position += chunk.length;
  }
  return { end: cutter.end, size: position, stopped: false };
}

/**
 * Reads a file from byte `from` to its end in 1 MiB chunks; each chunk is a view of
 * one reused buffer, valid until the next one is asked for.
 */
export async function* readChunks(fd: FileHandle, from: number): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafe(chunkSize);
  let position = from;
  for (;;) {
    const { bytesRead } = await fd.read(buffer, 0, chunkSize, position);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
    position += bytesRead;
  }
}

/**
 * Cuts the complete lines out of consecutive chunks of a file, carrying a line that
 * spans chunks over to the next, so memory stays bounded by the longest line.
 */
export class LineCutter {
  private carry: Buffer[] = [];

  /** `end` starts at the file offset of the first chunk's first byte. */
  constructor(private offset: number) {}

  /** The offset just past the last line `cut` passed on. */
  get end(): number {
    return this.offset;
  }

  /**
   * Calls `onLine` with each complete line of `chunk` (without its newline) and its
   * file offset; returns the index in `chunk` where the line `onLine` refused starts,
   * or -1 when it took them all.
   */
  cut(chunk: Buffer, onLine: (line: Buffer, offset: number) => boolean): number {
    let i = 0;
    while (i < chunk.length) {
      const newline = chunk.indexOf(10, i);
      if (newline === -1) {
        this.carry.push(Buffer.from(chunk.subarray(i)));
        break;
      }
      let line = chunk.subarray(i, newline);
      if (this.carry.length > 0) {
        this.carry.push(line);
        line = Buffer.concat(this.carry);
        this.carry = [];
      }
      if (!onLine(line, this.offset)) return i;
      this.offset += line.length + 1;
      i = newline + 1;
    }
    return -1;
  }
}

/** Splits a buffer of whole lines (each ending in a newline) into strings. */
export function splitLines(buffer: Buffer): string[] {
  const lines: string[] = [];
  let start = 0;
  for (;;) {
    const newline = buffer.indexOf(10, start);
    if (newline === -1) break;
    lines.push(buffer.toString('utf8', start, newline));
    start = newline + 1;
  }
  return lines;
}
