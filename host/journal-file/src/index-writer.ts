import { crc32 } from 'node:zlib';
import { open, unlink, type FileHandle } from 'node:fs/promises';
import { basename } from 'node:path';
import type { ProjectionCheckpoints, ProjectionRegistry } from '@dsh/journal';
import type { JournalFile } from './file-journal.js';
import {
  encodeIndexBlock,
  encodeIndexHeader,
  indexFormat,
  type IndexFileHeader,
} from './index-file.js';
import { indexBlockSize, type JournalIndex } from './journal-index.js';
import { indexPath, type LoadedIndex } from './persisted-index.js';

/**
 * The writer of a journal's index file after an open, and the log line saying what the
 * open found when the index was missing, damaged, stale or not this journal's.
 */
export async function openIndexWriter(
  file: Pick<JournalFile, 'path' | 'sessionId' | 'registry' | 'log'>,
  fd: FileHandle,
  loaded: LoadedIndex,
  kept: number,
  scanned: { index: JournalIndex; checkpoints: ProjectionCheckpoints },
  start: number,
): Promise<IndexWriter> {
  const { index, checkpoints } = scanned;
  const path = indexPath(file.path);
  const behind = kept < index.blocks;
  const name = basename(path);
  const indexed = `${index.length} events`;
  let line: string | undefined;
  if (loaded.problem === 'missing') {
    if (index.blocks > 0) line = `no index file ${name}: indexed ${indexed} from the journal`;
  } else if (loaded.problem !== undefined) {
    line =
      loaded.restored === undefined
        ? `the index file ${name} is ${loaded.problem}: rebuilt it from the journal (${indexed})`
        : `the index file ${name} is ${loaded.problem}: kept its first ${kept * indexBlockSize} events, ` +
          `indexed the rest of ${indexed} from the journal`;
  } else if (behind) {
    line =
      `the index file ${name} covered ${kept * indexBlockSize} of ${indexed} (the journal grew after ` +
      'its last write): indexed the rest from the journal';
  }
  if (line !== undefined) file.log?.(`session ${file.sessionId}: ${line}`);
  const headerLine = Buffer.allocUnsafe(start);
  const { bytesRead } = await fd.read(headerLine, 0, headerLine.length, 0);
  return new IndexWriter(
    path,
    IndexWriter.header(headerLine.subarray(0, bytesRead), file.registry),
    index,
    checkpoints,
    loaded.keepBytes,
    kept,
    loaded.problem !== undefined || behind,
  );
}

/** Blocks encoded per write (65,536 events). */
const blocksPerWrite = 256;

/**
 * Appends the blocks of a journal's index to its index file as they complete (every
 * `indexBlockSize` events), in order, one write at a time and never waited for by an
 * append: the index is a cache of the journal. A failed write stops the writer for this
 * open; the next open finds the index short or torn and indexes the rest from the journal.
 */
export class IndexWriter {
  private chain: Promise<void> = Promise.resolve();
  private fd: FileHandle | undefined;
  private position: number;
  private written: number;
  private broken = false;
  private repair: boolean;

  /**
   * `keepBytes` of the file at `path` hold its header and its first `written` blocks
   * (0: the file is written anew); `repair` writes (truncates) it even before the next
   * block completes, when what is on disk is missing, damaged or behind.
   */
  constructor(
    private readonly path: string,
    private readonly fileHeader: IndexFileHeader,
    private readonly index: JournalIndex,
    private readonly checkpoints: ProjectionCheckpoints,
    keepBytes: number,
    written: number,
    repair: boolean,
  ) {
    this.position = keepBytes;
    this.written = keepBytes === 0 ? 0 : written;
    this.repair = repair || keepBytes === 0;
  }

  /** The header an index of `headerLine` (with its newline) starts with. */
  static header(headerLine: Buffer, registry: ProjectionRegistry): IndexFileHeader {
    return {
      format: indexFormat,
      start: headerLine.length,
      headerCrc: crc32(headerLine),
      projections: registry.key,
    };
  }

  /** Queues the blocks completed since the last call. */
  update(): void {
    if (this.broken || (!this.repair && this.written >= this.index.blocks)) return;
    this.repair = false;
    this.chain = this.chain.then(() => this.write());
  }

  /** Writes the whole index file again (its index, now loaded from seq 0, is the truth). */
  rewrite(): void {
    if (this.broken) return;
    this.chain = this.chain.then(async () => {
      await this.fd?.close().catch(() => undefined);
      this.fd = undefined;
      this.position = 0;
      this.written = 0;
      await this.write();
    });
  }

  /** Waits for the queued writes, then closes the file. */
  async close(): Promise<void> {
    await this.chain;
    await this.fd?.close().catch(() => undefined);
    this.fd = undefined;
  }

  /** Written since the index file was opened, so a test can wait for it. */
  get settled(): Promise<void> {
    return this.chain;
  }

  private async write(): Promise<void> {
    if (this.broken || (this.fd !== undefined && this.written >= this.index.blocks)) return;
    try {
      if (this.fd === undefined && this.index.blocks === 0) {
        // Nothing to index yet (under 256 events): no file, and none left that is not this one's.
        if (this.position === 0) await unlink(this.path).catch(() => undefined);
        return;
      }
      if (this.fd === undefined) {
        this.fd = await open(this.path, this.position === 0 ? 'w' : 'r+');
        if (this.position === 0) {
          await this.put(encodeIndexHeader(this.fileHeader));
        } else {
          await this.fd.truncate(this.position);
        }
      }
      // A rebuilt index goes out in slices, so encoding it never holds the event loop long.
      while (this.written < this.index.blocks) {
        const records: Buffer[] = [];
        const upTo = Math.min(this.index.blocks, this.written + blocksPerWrite);
        for (let k = this.written; k < upTo; k += 1) {
          const checkpoint = this.checkpoints.snapshot(k + 1)!;
          records.push(encodeIndexBlock({ ...this.index.block(k), checkpoint }));
        }
        await this.put(Buffer.concat(records));
        this.written = upTo;
      }
    } catch {
      this.broken = true;
    }
  }

  private async put(data: Buffer): Promise<void> {
    let done = 0;
    while (done < data.length) {
      const { bytesWritten } = await this.fd!.write(data, done, data.length - done, this.position);
      done += bytesWritten;
      this.position += bytesWritten;
    }
  }
}
