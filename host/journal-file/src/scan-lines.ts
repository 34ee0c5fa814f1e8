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

/** Options of a line scan. */
export interface LineLimit {
  /** Lines longer than this are passed as a prefix of `headBytes` bytes (default: no limit). */
  readonly maxLineBytes?: number;
  /** How much of a line over the limit is kept (default 4096). */
  readonly headBytes?: number;
}

/**
 * Called with each complete line (without its newline), its byte offset and its size in
 * bytes; for a line over the limit `line` is only its first bytes (`line.length < bytes`).
 */
export type OnLine = (line: Buffer, offset: number, bytes: number) => boolean;

/**
 * Streams the file from `from` in 1 MiB chunks and calls `onLine` with each complete
 * line and its byte offset; returning false stops the scan. The line buffer is reused
 * after the call returns: copy or decode it inside `onLine`. Bytes after the last
 * newline are not passed: the caller sees them as `size - end`.
 */
export async function scanLines(
  fd: FileHandle,
  from: number,
  onLine: OnLine,
  limit: LineLimit = {},
): Promise<ScanEnd> {
  const cutter = new LineCutter(from, limit);
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
 * spans chunks over to the next. Memory stays bounded by the longest line, or by
 * `maxLineBytes` when given: of a longer line only its first `headBytes` are kept.
 */
export class LineCutter {
  private carry: Buffer[] = [];
  /** Bytes of the unfinished line seen so far (kept or not). */
  private carried = 0;
  /** Bytes of it kept in `carry`. */
  private kept = 0;
  private readonly maxLineBytes: number;
  private readonly headBytes: number;

  /** `end` starts at the file offset of the first chunk's first byte. */
  constructor(
    private offset: number,
    limit: LineLimit = {},
  ) {
    this.maxLineBytes = limit.maxLineBytes ?? Infinity;
    this.headBytes = limit.headBytes ?? 4096;
  }

  /** The offset just past the last line `cut` passed on. */
  get end(): number {
    return this.offset;
  }

  /**
   * Calls `onLine` with each complete line of `chunk` and its file offset; returns the
   * index in `chunk` where the line `onLine` refused starts, or -1 when it took them all.
   */
  cut(chunk: Buffer, onLine: OnLine): number {
    let i = 0;
    while (i < chunk.length) {
      const newline = chunk.indexOf(10, i);
      const piece = chunk.subarray(i, newline === -1 ? chunk.length : newline);
      if (newline === -1) {
        this.keep(piece);
        break;
      }
      let line = piece;
      const bytes = this.carried + piece.length;
      if (this.carried > 0 || bytes > this.maxLineBytes) {
        this.keep(piece);
        line = Buffer.concat(this.carry, this.kept);
      }
      this.carry = [];
      this.carried = 0;
      this.kept = 0;
      if (!onLine(line, this.offset, bytes)) return i;
      this.offset += bytes + 1;
      i = newline + 1;
    }
    return -1;
  }

  /** Carries a piece of the unfinished line; past the limit only its head stays. */
  private keep(piece: Buffer): void {
    this.carried += piece.length;
    if (this.carried <= this.maxLineBytes) {
      this.carry.push(Buffer.from(piece));
      this.kept += piece.length;
      return;
    }
    if (this.kept > this.headBytes) {
      this.carry = [Buffer.concat(this.carry, this.headBytes)];
      this.kept = this.headBytes;
    } else if (this.kept < this.headBytes) {
      const head = Buffer.from(piece.subarray(0, this.headBytes - this.kept));
      this.carry.push(head);
      this.kept += head.length;
    }
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
