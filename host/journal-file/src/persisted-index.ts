import { crc32 } from 'node:zlib';
import { open, readFile, type FileHandle } from 'node:fs/promises';
import {
  decodeHeaderLine,
  type JournalHeader,
  ProjectionCheckpoints,
  type ProjectionRegistry,
  SnapshotText,
} from '@dsh/journal';
import {
  type BlockBefore,
  decodeBlockBefore,
  decodeIndexFile,
  decodeIndexHeader,
  indexFormat,
  type IndexFileHeader,
  type ReadBlock,
} from './index-file.js';
import { indexBlockSize, JournalIndex } from './journal-index.js';

/** The index file beside a journal file `<id>.jsonl`: `<id>.idx`. */
export function indexPath(journalPath: string): string {
  return `${journalPath.replace(/\.jsonl$/, '')}.idx`;
}

/** Where the blocks an index was read back without still are in its file. */
export interface IndexSource {
  readonly path: string;
  /** Byte offset just past the header record. */
  readonly headerEnd: number;
  /** Byte offset of the first block record read back: the ones before it are not. */
  position: number;
}

/** A journal's state read back from its index: what a scan resumes from. */
export interface RestoredIndex {
  readonly header: JournalHeader;
  /** Byte offset of event 0 (the journal's header line with its newline). */
  readonly start: number;
  /**
   * The index from its last block on (from event 0 when the file was read whole);
   * `source` has the blocks before it.
   */
  readonly index: JournalIndex;
  readonly source: IndexSource | undefined;
  readonly checkpoints: ProjectionCheckpoints;
  readonly lastTime: Date | undefined;
}

/** The outcome of reading an index back: what it restored, and what the writer must do. */
export interface LoadedIndex {
  /** Undefined when nothing could be used: the journal is scanned from its start. */
  readonly restored: RestoredIndex | undefined;
  /** Bytes of the index file that stay; the writer truncates the rest (0: write it anew). */
  readonly keepBytes: number;
  /** Why part or all of the index was not used (missing, stale, damaged), for the log. */
  readonly problem: string | undefined;
}

/** Spot-checked lines besides the last indexed one. */
const sampledLines = 8;

/** Bytes read at a time when an index file is read from its end. */
const windowBytes = 1 << 20;

/**
 * Reads the index beside a journal from its end and checks it against the journal
 * cheaply: its header names this journal's header line and projections, the last block
 * record's CRC holds, the journal is at least as long as the indexed lines, and the first
 * and last line of that block start where the index says with the seq it says. Only the
 * last block is loaded (a tail page needs no more); `readBlocksBefore` reads the others
 * when a read needs them. A last record that is torn or damaged makes it read the whole
 * file instead, keeping the blocks before the damage. The journal stays the source of
 * truth: anything that does not match is not used and the scan reads those lines from
 * the journal.
 */
export async function loadIndex(
  path: string,
  fd: FileHandle,
  sessionId: string,
  registry: ProjectionRegistry,
): Promise<LoadedIndex> {
  let file: FileHandle;
  try {
    file = await open(path, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      restored: undefined,
      keepBytes: 0,
      problem: code === 'ENOENT' ? 'missing' : String(error),
    };
  }
  try {
    const size = (await file.stat()).size;
    const head = await readAt(file, 0, Math.min(size, 64 * 1024));
    const decoded = decodeIndexHeader(head);
    if (typeof decoded === 'string') return none(`damaged (${size === 0 ? 'empty' : decoded})`);
    const checked = await checkHeader(decoded.header, fd, sessionId, registry);
    if (typeof checked === 'string') return none(checked);
    const headerEnd = decoded.end;
    const { header } = decoded;
    if (headerEnd === size) {
      return restored(checked, header.start, JournalIndex.restore(header.start, []), [], size);
    }
    const last = await lastBlock(file, size, headerEnd);
    const block = last?.block;
    if (
      block === undefined ||
      block.firstSeq % indexBlockSize !== 0 ||
      (block.firstSeq === 0 ? block.start !== header.start : block.start <= header.start)
    ) {
      // A torn or damaged last record (a crash while it was written): read the whole file.
      return await loadWhole(await readFile(path), fd, checked);
    }
    const index = JournalIndex.restore(header.start, [block]);
    const problem = await checkIndexed(fd, index, [index.base, index.length - 1]);
    if (problem !== undefined) return none(problem);
    const source = block.firstSeq === 0 ? undefined : { path, headerEnd, position: last!.at };
    const checkpoints = ProjectionCheckpoints.resume(
      registry,
      [new SnapshotText(block.checkpointText)],
      block.firstSeq / indexBlockSize + 1,
    );
    return {
      restored: {
        header: checked,
        start: header.start,
        index,
        source,
        checkpoints,
        lastTime: new Date(block.lastTimeMs),
      },
      keepBytes: size,
      problem: undefined,
    };
  } finally {
    await file.close();
  }

  function restored(
    journalHeader: JournalHeader,
    start: number,
    index: JournalIndex,
    blocks: readonly ReadBlock[],
    keepBytes: number,
  ): LoadedIndex {
    const checkpoints = ProjectionCheckpoints.resume(registry, [
      registry.snapshot(registry.initial()),
      ...blocks.map((b) => new SnapshotText(b.checkpointText)),
    ]);
    const lastTimeMs = blocks.at(-1)?.lastTimeMs;
    return {
      restored: {
        header: journalHeader,
        start,
        index,
        source: undefined,
        checkpoints,
        lastTime: lastTimeMs === undefined ? undefined : new Date(lastTimeMs),
      },
      keepBytes,
      problem: undefined,
    };
  }

  /** The whole file decoded up to its first bad record; the blocks before it are kept. */
  async function loadWhole(
    data: Buffer,
    journal: FileHandle,
    journalHeader: JournalHeader,
  ): Promise<LoadedIndex> {
    const whole = decodeIndexFile(data);
    const { header, blocks } = whole;
    if (header === undefined) return none(`damaged (${whole.problem ?? 'empty'})`);
    const index = JournalIndex.restore(header.start, blocks);
    const seqs = [index.length - 1];
    for (let i = 0; i < sampledLines; i += 1)
      seqs.push(Math.floor((i * index.length) / sampledLines));
    const problem = await checkIndexed(journal, index, seqs);
    if (problem !== undefined) return none(problem);
    const loaded = restored(journalHeader, header.start, index, blocks, whole.goodBytes);
    return {
      ...loaded,
      problem: whole.problem === undefined ? undefined : `damaged (${whole.problem})`,
    };
  }
}

/** The last block record of an index file of `size` bytes and where it starts; undefined when torn. */
async function lastBlock(
  file: FileHandle,
  size: number,
  headerEnd: number,
): Promise<BlockBefore | undefined> {
  const from = Math.max(headerEnd, size - windowBytes);
  let found = decodeBlockBefore(await readAt(file, from, size - from), size - from);
  if (typeof found === 'object' && 'block' in found) return { ...found, at: from + found.at };
  if (typeof found !== 'object' || size - found.needs < headerEnd) return undefined;
  const { needs } = found;
  found = decodeBlockBefore(await readAt(file, size - needs, needs), needs);
  return typeof found === 'object' && 'block' in found
    ? { ...found, at: size - needs + found.at }
    : undefined;
}

function none(problem: string): LoadedIndex {
  return { restored: undefined, keepBytes: 0, problem };
}

/** The journal's header when the index header names it and its projections; else why not. */
async function checkHeader(
  header: IndexFileHeader,
  fd: FileHandle,
  sessionId: string,
  registry: ProjectionRegistry,
): Promise<JournalHeader | string> {
  if (header.format !== indexFormat) return `of format ${header.format}, not ${indexFormat}`;
  if (header.projections !== registry.key) return 'folded by other projections';
  const headerLine = await readAt(fd, 0, header.start);
  const other = "for another journal (its header line differs from the journal's)";
  if (
    headerLine.length !== header.start ||
    headerLine[header.start - 1] !== 10 ||
    crc32(headerLine) !== header.headerCrc
  ) {
    return other;
  }
  const journalHeader = decodeHeaderLine(headerLine.toString('utf8', 0, header.start - 1));
  if (!journalHeader.ok || journalHeader.value.sessionId !== sessionId) return other;
  return journalHeader.value;
}

/** Why the index does not fit the journal (longer than it, lines elsewhere); undefined when it does. */
async function checkIndexed(
  fd: FileHandle,
  index: JournalIndex,
  seqs: readonly number[],
): Promise<string | undefined> {
  const size = (await fd.stat()).size;
  if (index.end > size) {
    return `longer than the journal (${index.end} bytes indexed, the file has ${size})`;
  }
  const mismatch = await checkLines(fd, index, seqs);
  return mismatch === undefined ? undefined : `does not match the journal (${mismatch})`;
}

/** The blocks read back before an index's `base`, in order, and where the first starts. */
export interface EarlierBlocks {
  readonly blocks: ReadBlock[];
  readonly position: number;
}

/**
 * Reads at least `want` blocks (fewer when the file has no more) that end where `index`
 * starts, backwards from `source.position`, and checks them: each record's CRC, seqs and
 * offsets that join the blocks after them, and the first line of a few of them against
 * the journal. A string says why they cannot be used (the index file is damaged there).
 */
export async function readBlocksBefore(
  source: IndexSource,
  fd: FileHandle,
  index: JournalIndex,
  want: number,
): Promise<EarlierBlocks | string> {
  const blocks: ReadBlock[] = [];
  let end = source.position;
  let nextStart = index.byteRange(index.base, index.base)[0];
  let seq = index.base - indexBlockSize;
  const file = await open(source.path, 'r').catch((error: unknown) => String(error));
  if (typeof file === 'string') return file;
  try {
    let size = windowBytes;
    while (blocks.length < want && seq >= 0) {
      const from = Math.max(source.headerEnd, end - size);
      const window = await readAt(file, from, end - from);
      if (window.length !== end - from) return `record before byte ${end}: torn`;
      let local = window.length;
      while (blocks.length < want && seq >= 0) {
        const found = decodeBlockBefore(window, local);
        if (typeof found === 'string') return `record before byte ${from + local}: ${found}`;
        if ('needs' in found) {
          if (from === source.headerEnd) return `record before byte ${from + local}: torn`;
          size = Math.max(windowBytes, found.needs);
          break;
        }
        const { block, at } = found;
        const lastEnd = block.endBytes.readDoubleLE(block.endBytes.length - 8);
        if (block.firstSeq !== seq || lastEnd !== nextStart) {
          return `record at byte ${from + at}: not the block of events from seq ${seq}`;
        }
        blocks.push(block);
        nextStart = block.start;
        seq -= indexBlockSize;
        local = at;
      }
      end = from + local;
    }
  } finally {
    await file.close();
  }
  blocks.reverse();
  if (seq < 0 && end !== source.headerEnd) return `bytes before byte ${end}: not a block record`;
  const earlier = JournalIndex.restore(0, blocks);
  const spread =
    blocks.length <= 4
      ? blocks
      : [0, 1, 2, 3].map((i) => blocks[Math.floor((i * blocks.length) / 4)]!);
  const mismatch = await checkLines(
    fd,
    earlier,
    spread.map((b) => b.firstSeq),
  );
  if (mismatch !== undefined) return `it does not match the journal (${mismatch})`;
  return { blocks, position: end };
}

/** Why the lines the index names do not start where it says; undefined when they do. */
async function checkLines(
  fd: FileHandle,
  index: JournalIndex,
  seqs: readonly number[],
): Promise<string | undefined> {
  if (index.length === index.base) return undefined;
  // All the reads at once: a handful of small positional reads, one round trip.
  const checks = [...new Set(seqs)].map(async (seq) => {
    const [start, end] = index.byteRange(seq, seq + 1);
    const expected = `\n{"seq":${seq},`;
    const [head, last] = await Promise.all([
      readAt(fd, start - 1, expected.length),
      readAt(fd, end - 1, 1),
    ]);
    if (head.toString('utf8') !== expected) return `line of seq ${seq} not at byte ${start}`;
    if (last[0] !== 10) return `line of seq ${seq} does not end at byte ${end}`;
    return undefined;
  });
  return (await Promise.all(checks)).find((problem) => problem !== undefined);
}

/** Reads `length` bytes at `position` (fewer at the end of the file). */
async function readAt(fd: FileHandle, position: number, length: number): Promise<Buffer> {
  const buffer = Buffer.allocUnsafe(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await fd.read(buffer, done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return buffer.subarray(0, done);
}
