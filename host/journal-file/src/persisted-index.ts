import { crc32 } from 'node:zlib';
import { readFile, type FileHandle } from 'node:fs/promises';
import {
  decodeHeaderLine,
  type JournalHeader,
  ProjectionCheckpoints,
  type ProjectionRegistry,
  SnapshotText,
} from '@dsh/journal';
import { decodeIndexFile, indexFormat } from './index-file.js';
import { JournalIndex } from './journal-index.js';

/** The index file beside a journal file `<id>.jsonl`: `<id>.idx`. */
export function indexPath(journalPath: string): string {
  return `${journalPath.replace(/\.jsonl$/, '')}.idx`;
}

/** A journal's state read back from its index: what a scan resumes from. */
export interface RestoredIndex {
  readonly header: JournalHeader;
  readonly index: JournalIndex;
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

/**
 * Reads the index beside a journal and checks it against the journal cheaply: its header
 * names this journal's header line and projections, every record's CRC holds (a torn or
 * damaged tail is dropped, what is before it kept), the journal is at least as long as
 * the indexed lines, and the last indexed line and a few spread ones start where the
 * index says with the seq it says. The journal stays the source of truth: anything that
 * does not match is not used and the scan reads those lines from the journal.
 */
export async function loadIndex(
  path: string,
  fd: FileHandle,
  sessionId: string,
  registry: ProjectionRegistry,
): Promise<LoadedIndex> {
  let data: Buffer;
  try {
    data = await readFile(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return {
      restored: undefined,
      keepBytes: 0,
      problem: code === 'ENOENT' ? 'missing' : String(error),
    };
  }
  const decoded = decodeIndexFile(data);
  const { header, blocks } = decoded;
  const none = (problem: string): LoadedIndex => ({ restored: undefined, keepBytes: 0, problem });
  if (header === undefined) return none(`damaged (${decoded.problem ?? 'empty'})`);
  if (header.format !== indexFormat) return none(`of format ${header.format}, not ${indexFormat}`);
  if (header.projections !== registry.key) return none('folded by other projections');
  const size = (await fd.stat()).size;
  const headerLine = await readAt(fd, 0, header.start);
  if (
    headerLine.length !== header.start ||
    headerLine[header.start - 1] !== 10 ||
    crc32(headerLine) !== header.headerCrc
  ) {
    return none("for another journal (its header line differs from the journal's)");
  }
  const journalHeader = decodeHeaderLine(headerLine.toString('utf8', 0, header.start - 1));
  if (!journalHeader.ok || journalHeader.value.sessionId !== sessionId) {
    return none("for another journal (its header line differs from the journal's)");
  }
  const index = JournalIndex.restore(header.start, blocks);
  if (index.end > size) {
    return none(`longer than the journal (${index.end} bytes indexed, the file has ${size})`);
  }
  const mismatch = await checkLines(fd, index);
  if (mismatch !== undefined) return none(`does not match the journal (${mismatch})`);
  const checkpoints = ProjectionCheckpoints.resume(registry, [
    registry.snapshot(registry.initial()),
    ...blocks.map((b) => new SnapshotText(b.checkpointText)),
  ]);
  const lastTimeMs = blocks.at(-1)?.lastTimeMs;
  return {
    restored: {
      header: journalHeader.value,
      index,
      checkpoints,
      lastTime: lastTimeMs === undefined ? undefined : new Date(lastTimeMs),
    },
    keepBytes: decoded.goodBytes,
    problem: decoded.problem === undefined ? undefined : `damaged (${decoded.problem})`,
  };
}

/** Why the lines the index names do not start where it says; undefined when they do. */
async function checkLines(fd: FileHandle, index: JournalIndex): Promise<string | undefined> {
  const count = index.length;
  if (count === 0) return undefined;
  const seqs = new Set([count - 1]);
  for (let i = 0; i < sampledLines; i += 1) seqs.add(Math.floor((i * count) / sampledLines));
  // All the reads at once: a handful of small positional reads, one round trip.
  const checks = [...seqs].map(async (seq) => {
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
