import { checkpointInterval, type OversizedLine } from '@dsh/journal';

/** Events per block of the persisted index: one projection checkpoint each. */
export const indexBlockSize = checkpointInterval;

/** One block of the index: events [firstSeq, firstSeq + ends.length), as persisted. */
export interface IndexBlock {
  readonly firstSeq: number;
  /** Byte offset where the block's first line starts. */
  readonly start: number;
  /** Byte offset just past each event's line. */
  readonly ends: Float64Array;
  /** Seqs of the block's message boundaries, ascending. */
  readonly messages: Uint32Array;
  /** The oversized lines of the block by seq. */
  readonly oversized: ReadonlyMap<number, OversizedLine>;
  /** Time of the block's last event (ms since the epoch). */
  readonly lastTimeMs: number;
}

/**
 * A block read back from an index file: its end offsets (f64) and message seqs (u32)
 * still as little-endian bytes, copied into the index whole.
 */
export interface StoredBlock extends Omit<IndexBlock, 'ends' | 'messages'> {
  readonly endBytes: Buffer;
  readonly messageBytes: Buffer;
}

/**
 * The in-memory index of one journal: the byte offset of every event line and the
 * sorted seqs of message boundaries, in growing typed arrays (8 bytes per event, 4 per
 * message), so a page or read finds its byte range without touching other lines. Lines
 * too large to serve are listed apart, with what is known of them.
 *
 * It may hold only the events from `base` on (a multiple of `indexBlockSize`: a persisted
 * index read from its end); `prepend` adds the blocks before it. Every seq asked of it
 * must be at or past `base`, and message boundaries are counted from `base`.
 */
export class JournalIndex {
  /** `offsets[i]` is where the line of event `base + i` starts. */
  private offsets: Float64Array;
  private boundaries = new Uint32Array(1024);
  private boundaryCount = 0;
  private count = 0;
  private first = 0;
  /** Seqs of oversized lines, ascending, and what each holds. */
  private oversizedSeqs: number[] = [];
  private readonly oversizedLines = new Map<number, OversizedLine>();
  /** Time of the last event of each complete block from `base` on (ms). */
  private blockTimes: number[] = [];

  /** `firstOffset` is the byte offset of event 0 (just past the header line). */
  constructor(firstOffset: number) {
    this.offsets = new Float64Array(4096);
    this.offsets[0] = firstOffset;
  }

  /** Seq of the first indexed event (0 unless the blocks before are not loaded yet). */
  get base(): number {
    return this.first;
  }

  /** Number of indexed events. */
  get length(): number {
    return this.count;
  }

  /** Byte offset just past the last indexed line: where the next line goes. */
  get end(): number {
    return this.offsets[this.count - this.first] as number;
  }

  /** Indexes the next event: its line takes `bytes` bytes including the newline. */
  push(bytes: number, isMessage: boolean, timeMs: number): void {
    const at = this.count - this.first;
    if (at + 2 > this.offsets.length) this.offsets = grow(this.offsets);
    if (isMessage) {
      if (this.boundaryCount === this.boundaries.length) this.boundaries = grow(this.boundaries);
      this.boundaries[this.boundaryCount++] = this.count;
    }
    this.offsets[at + 1] = (this.offsets[at] as number) + bytes;
    this.count += 1;
    if (this.count % indexBlockSize === 0) this.blockTimes.push(timeMs);
  }

  /** Complete blocks: `indexBlockSize` events each. */
  get blocks(): number {
    return this.first / indexBlockSize + this.blockTimes.length;
  }

  /** The k-th complete block (at or past `base`), as the persisted index stores it. */
  block(k: number): IndexBlock {
    const firstSeq = k * indexBlockSize;
    const to = firstSeq + indexBlockSize;
    const at = firstSeq - this.first;
    const ends = this.offsets.slice(at + 1, at + indexBlockSize + 1);
    const messages = this.boundaries.slice(this.messagesBefore(firstSeq), this.messagesBefore(to));
    const oversized = new Map<number, OversizedLine>();
    for (const seq of this.oversizedBetween(firstSeq, to)) {
      oversized.set(seq, this.oversizedLines.get(seq)!);
    }
    const lastTimeMs = this.blockTimes[k - this.first / indexBlockSize] as number;
    return { firstSeq, start: this.offsets[at] as number, ends, messages, oversized, lastTimeMs };
  }

  /**
   * The index of consecutive blocks (a persisted index read back, from its end): a copy of
   * each block's offsets and message seqs, no work per event and no line read. Its `base`
   * is the first block's seq; with no blocks it is empty from `firstOffset`.
   */
  static restore(firstOffset: number, blocks: readonly StoredBlock[]): JournalIndex {
    const index = new JournalIndex(blocks[0]?.start ?? firstOffset);
    index.prepend(blocks);
    return index;
  }

  /**
   * Adds the consecutive blocks that end where `base` starts (read back from the index
   * file or scanned from the journal), so `base` moves to the first of them.
   */
  prepend(blocks: readonly StoredBlock[]): void {
    if (blocks.length === 0) return;
    const added = blocks.length * indexBlockSize;
    const kept = this.count - this.first;
    let capacity = this.offsets.length;
    while (capacity < kept + added + 2) capacity *= 2;
    const offsets = new Float64Array(capacity);
    offsets[0] = blocks[0]!.start;
    const offsetBytes = new Uint8Array(offsets.buffer);
    for (const block of blocks) {
      offsetBytes.set(block.endBytes, (block.firstSeq - blocks[0]!.firstSeq + 1) * 8);
    }
    offsets.set(this.offsets.subarray(1, kept + 1), added + 1);
    let messages = 0;
    for (const block of blocks) messages += block.messageBytes.length / 4;
    const boundaries = new Uint32Array(Math.max(1024, (messages + this.boundaryCount) * 2));
    const boundaryBytes = new Uint8Array(boundaries.buffer);
    let at = 0;
    const oversizedSeqs: number[] = [];
    for (const block of blocks) {
      boundaryBytes.set(block.messageBytes, at * 4);
      at += block.messageBytes.length / 4;
      for (const [seq, line] of block.oversized) {
        oversizedSeqs.push(seq);
        this.oversizedLines.set(seq, line);
      }
    }
    boundaries.set(this.boundaries.subarray(0, this.boundaryCount), messages);
    this.offsets = offsets;
    this.boundaries = boundaries;
    this.boundaryCount += messages;
    this.oversizedSeqs = [...oversizedSeqs, ...this.oversizedSeqs];
    this.blockTimes = [...blocks.map((b) => b.lastTimeMs), ...this.blockTimes];
    this.first = blocks[0]!.firstSeq;
    if (this.count < this.first + added) this.count = this.first + added;
  }

  /** Blocks [from, to) as stored, to prepend to another index (all at or past `base`). */
  storedBlocks(from: number, to: number): StoredBlock[] {
    const blocks: StoredBlock[] = [];
    for (let k = from; k < to; k += 1) {
      const { ends, messages, ...rest } = this.block(k);
      blocks.push({
        ...rest,
        endBytes: Buffer.from(ends.buffer, ends.byteOffset, ends.byteLength),
        messageBytes: Buffer.from(messages.buffer, messages.byteOffset, messages.byteLength),
      });
    }
    return blocks;
  }

  /** Indexes the next event as a line too large to serve (never a message boundary). */
  pushOversized(bytes: number, line: OversizedLine): void {
    this.oversizedSeqs.push(this.count);
    this.oversizedLines.set(this.count, line);
    this.push(bytes, false, line.time.getTime());
  }

  /** Seqs of oversized lines with from <= seq < to, ascending. */
  oversizedBetween(from: number, to: number): number[] {
    const seqs = this.oversizedSeqs;
    if (seqs.length === 0) return [];
    let lo = 0;
    let hi = seqs.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((seqs[mid] as number) < from) lo = mid + 1;
      else hi = mid;
    }
    const found: number[] = [];
    for (let i = lo; i < seqs.length && (seqs[i] as number) < to; i += 1) found.push(seqs[i]!);
    return found;
  }

  /** What is known of the oversized line at `seq`; undefined for a served line. */
  oversized(seq: number): OversizedLine | undefined {
    return this.oversizedLines.get(seq);
  }

  /** Byte range [start, end) holding the lines of events from <= seq < to. */
  byteRange(from: number, to: number): [number, number] {
    return [this.offsets[from - this.first] as number, this.offsets[to - this.first] as number];
  }

  /** Bytes of the lines of events [from, to), not counting oversized lines (never read). */
  servedBytes(from: number, to: number): number {
    const [start, end] = this.byteRange(from, to);
    let bytes = end - start;
    for (const seq of this.oversizedBetween(from, to))
      bytes -= this.oversizedLines.get(seq)!.bytes + 1;
    return bytes;
  }

  /**
   * The largest `end` in (from, to] whose lines [from, end) fit in `maxBytes`, or
   * `from + 1` when even the first line is larger; a binary search over the offsets.
   */
  endWithin(from: number, to: number, maxBytes: number): number {
    const base = this.first;
    const limit = (this.offsets[from - base] as number) + maxBytes;
    let lo = from + 1;
    let hi = to;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((this.offsets[mid - base] as number) <= limit) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Number of message boundaries with `base` <= seq < `end`. */
  messagesBefore(end: number): number {
    let lo = 0;
    let hi = this.boundaryCount;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.boundaries[mid] as number) < end) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Seq of the i-th message boundary from `base` (0-based). */
  boundary(i: number): number {
    return this.boundaries[i] as number;
  }
}

function grow<T extends Float64Array | Uint32Array>(array: T): T {
  const next = new (array.constructor as new (length: number) => T)(array.length * 2);
  next.set(array);
  return next;
}
