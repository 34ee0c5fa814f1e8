import { open } from 'node:fs/promises';
import { lineHeadBytes, parseLineHead } from '@dsh/journal';

const blockSize = 64 * 1024;
/** Most bytes read back from a file's end; past it the answer is `unknown`. */
const maxBackBytes = 16 * 1024 * 1024;

/**
 * The time (ms) of the last event of a journal file whose time is at most `asOfMs`, read
 * backwards from the end line by line (events are appended in time order, so the first
 * such line from the end is the last one): what the session's last-event time was at
 * `asOfMs`. `none` when no event is that old (the session is newer), `unknown` when more
 * than `maxBackBytes` were appended since.
 */
export async function lastTimeAsOf(
  path: string,
  asOfMs: number,
): Promise<number | 'none' | 'unknown'> {
  const fd = await open(path, 'r').catch(() => undefined);
  if (fd === undefined) return 'none';
  try {
    const size = (await fd.stat()).size;
    let end = size;
    let carry = Buffer.alloc(0);
    while (end > 0 && size - end < maxBackBytes) {
      const start = Math.max(0, end - blockSize);
      const block = Buffer.allocUnsafe(end - start);
      const { bytesRead } = await fd.read(block, 0, block.length, start);
      let text = Buffer.concat([block.subarray(0, bytesRead), carry]);
      end = start;
      for (let nl = text.lastIndexOf(10); ; nl = text.lastIndexOf(10)) {
        const from = nl + 1;
        if (nl < 0 && end > 0) break;
        const head = parseLineHead(text.toString('utf8', from, from + lineHeadBytes));
        if (head !== undefined && head.time.getTime() <= asOfMs) return head.time.getTime();
        if (nl < 0) break;
        text = text.subarray(0, nl);
      }
      carry = Buffer.from(text);
    }
    return end === 0 ? 'none' : 'unknown';
  } finally {
    await fd.close();
  }
}
