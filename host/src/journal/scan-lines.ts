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
  const buffer = Buffer.allocUnsafe(chunkSize);
  let carry: Buffer[] = [];
  let position = from;
  let lineStart = from;
  for (;;) {
    const { bytesRead } = await fd.read(buffer, 0, chunkSize, position);
    if (bytesRead === 0) break;
    const chunk = buffer.subarray(0, bytesRead);
    let i = 0;
    while (i < bytesRead) {
      const newline = chunk.indexOf(10, i);
      if (newline === -1) {
        carry.push(Buffer.from(chunk.subarray(i)));
        break;
      }
      let line = chunk.subarray(i, newline);
      if (carry.length > 0) {
        carry.push(line);
        line = Buffer.concat(carry);
        carry = [];
      }
      if (!onLine(line, lineStart)) return { end: lineStart, size: position + i, stopped: true };
      lineStart += line.length + 1;
      i = newline + 1;
    }
    position += bytesRead;
  }
  return { end: lineStart, size: position, stopped: false };
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
