import { open } from 'node:fs/promises';
import { LineCutter, readChunks } from '@dsh/journal-file';

/** One complete line of a file and the byte offset just past its newline. */
export interface FileLine {
  readonly text: string;
  readonly end: number;
}

/**
 * Streams the complete (newline-terminated) lines of a file from byte `from`, reading
 * 1 MiB at a time, so memory stays bounded by the longest line whatever the file size.
 * Bytes after the last newline (a line still being written) are not yielded.
 */
export async function* readLines(path: string, from: number): AsyncGenerator<FileLine> {
  const fd = await open(path, 'r');
  try {
    const cutter = new LineCutter(from);
    for await (const chunk of readChunks(fd, from)) {
      const lines: FileLine[] = [];
      cutter.cut(chunk, (line, offset) => {
        lines.push({ text: line.toString('utf8'), end: offset + line.length + 1 });
        return true;
      });
      yield* lines;
    }
  } finally {
    await fd.close();
  }
}
