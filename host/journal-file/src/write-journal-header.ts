import { randomBytes } from 'node:crypto';
import { link, open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError } from './io-error.js';
import { encodeHeaderLine, type JournalHeader } from '@dsh/journal';

/**
 * Creates `<dataDir>/<sessionId>.jsonl` holding only its header, durably; false when the
 * file already exists. The header goes to a temp file first (`.<id>.<pid>.<rand>.tmp`,
 * which `list()` ignores) and is linked to its name only once it is on disk, so a
 * failure (disk full) leaves no journal behind, and `link` fails on a taken name the way
 * `O_EXCL` does. Failures throw a `JournalError` naming the data dir.
 */
export async function writeJournalHeader(dataDir: string, header: JournalHeader): Promise<boolean> {
  const id = header.sessionId;
  const path = join(dataDir, `${id}.jsonl`);
  const temp = join(dataDir, `.${id}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  let linked = false;
  try {
    const fd = await open(temp, 'wx');
    try {
      await fd.write(encodeHeaderLine(header) + '\n');
      await fd.datasync();
    } finally {
      await fd.close();
    }
    linked = await link(temp, path).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (!linked) return false;
    const dir = await open(dataDir, 'r');
    try {
      await dir.sync(); // Makes the new directory entry durable too.
    } finally {
      await dir.close();
    }
    return true;
  } catch (error) {
    if (linked) await rm(path, { force: true }).catch(() => undefined);
    throw ioError(error, { action: `cannot create session ${id}`, path, dataDir });
  } finally {
    await rm(temp, { force: true }).catch(() => undefined);
  }
}
