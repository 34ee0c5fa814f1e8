import { open } from 'node:fs/promises';

/** One complete line of a file and the byte offset just past its newline. */
export interface FileLine {
  readonly text: string;
  readonly end: number;
}

const chunkSize = 1 << 20;

/**
 * Streams the complete (newline-terminated) lines of a file from byte `from`, reading
 * 1 MiB at a time, so memory stays bounded by the longest line whatever the file size.
 * Bytes after the last newline (a line still being written) are not yielded.
 */
export async function* readLines(path: string, from: number): AsyncGenerator<FileLine> {
  const fd = await open(path, 'r');
  try {
    const buffer = Buffer.allocUnsafe(chunkSize);
    let carry: Buffer[] = [];
    let position = from;
    let lineStart = from;
    for (;;) {
      const { bytesRead } = await fd.read(buffer, 0, chunkSize, position);
      if (bytesRead === 0) return;
      const chunk = buffer.subarray(0, bytesRead);
      const lines: FileLine[] = [];
      let i = 0;
      while (i < bytesRead) {
        const newline = chunk.indexOf(10, i);
        if (newline === -1) {
          carry.push(Buffer.from(chunk.subarray(i)));
          break;
        }
        let line = chunk.subarray(i, newline);
        if (carry.length > 0) line = Buffer.concat([...carry, line]);
        carry = [];
        lineStart += line.length + 1;
        lines.push({ text: line.toString('utf8'), end: lineStart });
        i = newline + 1;
      }
      position += bytesRead;
      yield* lines;
    }
  } finally {
    await fd.close();
  }
}
