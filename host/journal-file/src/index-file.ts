import { crc32 } from 'node:zlib';
import type { JsonValue } from '@bufbuild/protobuf';
import type { OversizedLine } from '@dsh/journal';
import { type IndexBlock, indexBlockSize, type StoredBlock } from './journal-index.js';

/** The persisted index format this host reads and writes. */
export const indexFormat = 2;

const headerKind = 1;
const blockKind = 2;
/**
 * Framing: a u32 payload length before the payload, its u32 CRC-32 after it and the
 * length again, so the records can be walked from the end of the file as well.
 */
const frameBytes = 12;

/** The first record of an index file: which journal, and which projections, it indexes. */
export interface IndexFileHeader {
  readonly format: number;
  /** Byte offset of event 0: the journal's header line's length plus its newline. */
  readonly start: number;
  /** CRC-32 of the journal's header line (with its newline). */
  readonly headerCrc: number;
  /** `ProjectionRegistry.key` the checkpoints were folded under. */
  readonly projections: string;
}

/** A block with the projection checkpoint after its last event, to write. */
export interface PersistedBlock extends IndexBlock {
  readonly checkpoint: JsonValue;
}

/** A block read back; its checkpoint stays JSON text until a baseline needs it. */
export interface ReadBlock extends StoredBlock {
  readonly checkpointText: string;
}

/** What an index file holds up to its first bad record. */
export interface DecodedIndexFile {
  readonly header: IndexFileHeader | undefined;
  readonly blocks: ReadBlock[];
  /** Bytes of the good records: a writer truncates the file here before it appends. */
  readonly goodBytes: number;
  /** Why decoding stopped before the end of the file (a torn or damaged record). */
  readonly problem: string | undefined;
}

/** The header record. */
export function encodeIndexHeader(header: IndexFileHeader): Buffer {
  return frame(headerKind, Buffer.from(JSON.stringify(header)));
}

/** Bytes of a block record's fixed head. */
const blockHead = 32;

/**
 * A block record: first seq, count, the last event's time (f64 ms), the number of
 * message boundaries, the length of the oversized lines' JSON, the byte offset where the
 * block's first line starts (f64); then the end offset of
 * every line (f64), the seq of every message boundary (u32), the oversized lines' JSON
 * (empty when there are none) and the checkpoint's JSON. Numbers are little-endian.
 */
export function encodeIndexBlock(block: PersistedBlock): Buffer {
  const count = block.ends.length;
  const messages = block.messages.length;
  const oversized =
    block.oversized.size === 0
      ? Buffer.alloc(0)
      : Buffer.from(
          JSON.stringify(
            [...block.oversized].map(([seq, l]) => [seq, l.type, l.time.getTime(), l.bytes]),
          ),
        );
  const checkpoint = Buffer.from(JSON.stringify(block.checkpoint));
  const listsEnd = blockHead + count * 8 + messages * 4;
  const body = Buffer.allocUnsafe(listsEnd + oversized.length + checkpoint.length);
  body.writeUInt32LE(block.firstSeq, 0);
  body.writeUInt32LE(count, 4);
  body.writeDoubleLE(block.lastTimeMs, 8);
  body.writeUInt32LE(messages, 16);
  body.writeUInt32LE(oversized.length, 20);
  body.writeDoubleLE(block.start, 24);
  body.set(new Uint8Array(block.ends.buffer, block.ends.byteOffset, count * 8), blockHead);
  body.set(
    new Uint8Array(block.messages.buffer, block.messages.byteOffset, messages * 4),
    blockHead + count * 8,
  );
  oversized.copy(body, listsEnd);
  checkpoint.copy(body, listsEnd + oversized.length);
  return frame(blockKind, body);
}

/**
 * Reads the records of an index file up to the first that is torn, fails its CRC or does
 * not follow the one before (seqs contiguous from 0, offsets growing); what is before it
 * stays usable.
 */
export function decodeIndexFile(data: Buffer): DecodedIndexFile {
  let header: IndexFileHeader | undefined;
  const blocks: ReadBlock[] = [];
  let at = 0;
  let problem: string | undefined;
  let lastEnd = -1;
  while (at < data.length) {
    const record = readRecord(data, at);
    if (typeof record === 'string') {
      problem = `record at byte ${at}: ${record}`;
      break;
    }
    const { kind, body, next } = record;
    if (header === undefined) {
      const decoded = kind === headerKind ? decodeHeader(body) : undefined;
      if (decoded === undefined) {
        problem = 'the first record is not an index header';
        break;
      }
      header = decoded;
      lastEnd = decoded.start;
    } else {
      const block = kind === blockKind ? decodeBlock(body) : undefined;
      const expected = blocks.length * indexBlockSize;
      const first = block?.endBytes.readDoubleLE(0) ?? Number.NaN;
      const last = block?.endBytes.readDoubleLE(block.endBytes.length - 8) ?? Number.NaN;
      if (
        block === undefined ||
        block.firstSeq !== expected ||
        block.start !== lastEnd ||
        !(lastEnd < first && first <= last)
      ) {
        problem = `record at byte ${at}: not the block of events from seq ${expected}`;
        break;
      }
      blocks.push(block);
      lastEnd = last;
    }
    at = next;
  }
  return { header, blocks, goodBytes: header === undefined ? 0 : at, problem };
}

function frame(kind: number, body: Buffer): Buffer {
  const out = Buffer.allocUnsafe(frameBytes + 1 + body.length);
  out.writeUInt32LE(1 + body.length, 0);
  out[4] = kind;
  body.copy(out, 5);
  out.writeUInt32LE(crc32(out.subarray(4, 5 + body.length)), 5 + body.length);
  out.writeUInt32LE(1 + body.length, 9 + body.length);
  return out;
}

/** The header record at the start of `data`, and the byte after it; a string says why not. */
export function decodeIndexHeader(data: Buffer): { header: IndexFileHeader; end: number } | string {
  const record = readRecord(data, 0);
  if (typeof record === 'string') return `record at byte 0: ${record}`;
  const header = record.kind === headerKind ? decodeHeader(record.body) : undefined;
  if (header === undefined) return 'the first record is not an index header';
  return { header, end: record.next };
}

/** A block record read from the end of a window of the file. */
export interface BlockBefore {
  readonly block: ReadBlock;
  /** Byte offset (in the window) where the record starts. */
  readonly at: number;
}

/**
 * The block record that ends at byte `end` of `data`, read backwards through its trailing
 * length: `needs` (the record's whole size) when it starts before the window, a string
 * when it is torn or damaged.
 */
export function decodeBlockBefore(
  data: Buffer,
  end: number,
): BlockBefore | { needs: number } | string {
  if (end < 4) return { needs: 4 };
  const length = data.readUInt32LE(end - 4);
  const at = end - length - frameBytes;
  if (length < 1) return 'torn (no length)';
  if (at < 0) return { needs: length + frameBytes };
  const record = readRecord(data, at);
  if (typeof record === 'string') return record;
  if (record.next !== end) return 'torn (its lengths differ)';
  const block = record.kind === blockKind ? decodeBlock(record.body) : undefined;
  if (block === undefined) return 'not a block of the index';
  return { block, at };
}

function readRecord(
  data: Buffer,
  at: number,
): { kind: number; body: Buffer; next: number } | string {
  if (at + 4 > data.length) return 'torn (no length)';
  const length = data.readUInt32LE(at);
  const next = at + length + frameBytes;
  if (length < 1 || next > data.length) return 'torn (shorter than its length)';
  const payload = data.subarray(at + 4, at + 4 + length);
  if (crc32(payload) !== data.readUInt32LE(at + 4 + length)) return 'checksum mismatch';
  if (data.readUInt32LE(at + 8 + length) !== length) return 'torn (its lengths differ)';
  return { kind: payload[0] as number, body: payload.subarray(1), next };
}

function decodeHeader(body: Buffer): IndexFileHeader | undefined {
  const value = parseJson(body);
  if (typeof value !== 'object' || value === null) return undefined;
  const { format, start, headerCrc, projections } = value as Record<string, unknown>;
  if (
    typeof format !== 'number' ||
    typeof start !== 'number' ||
    typeof headerCrc !== 'number' ||
    typeof projections !== 'string'
  ) {
    return undefined;
  }
  return { format, start, headerCrc, projections };
}

function decodeBlock(body: Buffer): ReadBlock | undefined {
  if (body.length < blockHead) return undefined;
  const firstSeq = body.readUInt32LE(0);
  const count = body.readUInt32LE(4);
  const lastTimeMs = body.readDoubleLE(8);
  const messages = body.readUInt32LE(16);
  const oversizedBytes = body.readUInt32LE(20);
  const start = body.readDoubleLE(24);
  const listsEnd = blockHead + count * 8 + messages * 4;
  const checkpointAt = listsEnd + oversizedBytes;
  if (count !== indexBlockSize || messages > count || body.length <= checkpointAt) {
    return undefined;
  }
  const to = firstSeq + count;
  const messageBytes = body.subarray(blockHead + count * 8, listsEnd);
  if (
    messages > 0 &&
    !(messageBytes.readUInt32LE(0) >= firstSeq && messageBytes.readUInt32LE(messages * 4 - 4) < to)
  ) {
    return undefined;
  }
  const oversized = new Map<number, OversizedLine>();
  if (oversizedBytes > 0) {
    const entries = parseJson(body.subarray(listsEnd, checkpointAt));
    if (!Array.isArray(entries)) return undefined;
    for (const entry of entries as unknown[]) {
      if (!Array.isArray(entry) || entry.length !== 4) return undefined;
      const [seq, type, time, bytes] = entry as unknown[];
      if (typeof seq !== 'number' || !(seq >= firstSeq && seq < to)) return undefined;
      if (typeof type !== 'string' || typeof time !== 'number' || typeof bytes !== 'number') {
        return undefined;
      }
      oversized.set(seq, { type, time: new Date(time), bytes });
    }
  }
  if (!(start < body.readDoubleLE(blockHead))) return undefined;
  return {
    firstSeq,
    start,
    endBytes: body.subarray(blockHead, blockHead + count * 8),
    messageBytes,
    oversized,
    lastTimeMs,
    checkpointText: body.toString('utf8', checkpointAt),
  };
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
