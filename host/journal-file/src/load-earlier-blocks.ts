import type { FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { JournalError, type ProjectionCheckpoints, SnapshotText } from '@dsh/journal';
import type { JournalFile } from './file-journal.js';
import type { IndexWriter } from './index-writer.js';
import { ioError } from './io-error.js';
import { indexBlockSize, type JournalIndex } from './journal-index.js';
import { indexPath, type IndexSource, readBlocksBefore } from './persisted-index.js';
import { scanJournal } from './scan-journal.js';

/** An open journal whose index holds only its later blocks (read from the index's end). */
export interface PartlyLoaded {
  readonly file: JournalFile;
  readonly fd: FileHandle;
  readonly index: JournalIndex;
  readonly checkpoints: ProjectionCheckpoints;
  readonly source: IndexSource;
  readonly writer: IndexWriter | undefined;
}

/**
 * Reads at least `events` more events' worth of index blocks before `index.base` back
 * from the index file (as many as are loaded already, so reading it all costs one pass);
 * when the blocks there are damaged or do not match the journal, the events before
 * `index.base` are indexed from the journal instead and the index file is written again.
 */
export async function loadEarlierBlocks(journal: PartlyLoaded, events: number): Promise<void> {
  const { index, checkpoints, source } = journal;
  const loadedBlocks = (index.length - index.base) / indexBlockSize;
  const want = Math.max(Math.ceil(events / indexBlockSize), Math.ceil(loadedBlocks));
  const read = await readBlocksBefore(source, journal.fd, index, want).catch((error: unknown) =>
    String(error),
  );
  if (typeof read === 'string') return indexFromJournal(journal, read);
  index.prepend(read.blocks);
  checkpoints.fill(
    read.blocks[0]!.firstSeq / indexBlockSize + 1,
    read.blocks.map((b) => new SnapshotText(b.checkpointText)),
  );
  source.position = read.position;
}

/** Indexes the events before `index.base` from the journal: its index file is damaged there. */
async function indexFromJournal(journal: PartlyLoaded, problem: string): Promise<void> {
  const { sessionId, registry, log, path } = journal.file;
  const base = journal.index.base;
  let scanned: Awaited<ReturnType<typeof scanJournal>>;
  try {
    scanned = await scanJournal(journal.fd, sessionId, registry);
  } catch (error) {
    throw ioError(error, {
      action: `session ${sessionId}: cannot read`,
      path,
      dataDir: dirname(path),
    });
  }
  if (!scanned.ok) {
    const { line, reason } = scanned.failure;
    throw new JournalError('corrupt', `session ${sessionId}: line ${line}: ${reason}`, {
      sessionId,
      line,
    });
  }
  const { index, checkpoints } = scanned.value;
  const blocks = base / indexBlockSize;
  journal.index.prepend(index.storedBlocks(0, blocks));
  const snapshots = [];
  for (let k = 1; k <= blocks; k += 1) snapshots.push(checkpoints.snapshot(k)!);
  journal.checkpoints.fill(1, snapshots);
  log?.(
    `session ${sessionId}: the index file ${basename(indexPath(path))} is damaged (${problem}): ` +
      `indexed its first ${base} events from the journal again and rewrote it`,
  );
  journal.writer?.rewrite();
}
