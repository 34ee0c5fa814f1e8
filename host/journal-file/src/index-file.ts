import { crc32 } from 'node:zlib';
import type { JsonValue } from '@bufbuild/protobuf';
import type { OversizedLine } from '@dsh/journal';
import { type IndexBlock, indexBlockSize, oversizedFlag } from './journal-index.js';

/** The persisted index format this host reads and writes. */
export const indexFormat = 1;

const headerKind = 1;
const blockKind = 2;
/** Framing: a u32 payload length before the payload and its u32 CRC-32 after it. */
const frameBytes = 8;

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

/** A block with the projection checkpoint after its last event. */
export interface PersistedBlock extends IndexBlock {
  readonly checkpoint: JsonValue;
}

/** What an index file holds up to its first bad record. */
export interface DecodedIndexFile {
  readonly header: IndexFileHeader | undefined;
  readonly blocks: PersistedBlock[];
  /** Bytes of the good records: a writer truncates the file here before it appends. */
  readonly goodBytes: number;
  /** Why decoding stopped before the end of the file (a torn or damaged record). */
  readonly problem: string | undefined;
}

/** The header record. */
export function encodeIndexHeader(header: IndexFileHeader): Buffer {
  return frame(headerKind, Buffer.from(JSON.stringify(header)));
}

/**
 * A block record: first seq, count, the end offset of every line (f64), a flag byte per
 * line, then JSON with the last event's time, the oversized lines and the checkpoint.
 */
export function encodeIndexBlock(block: PersistedBlock): Buffer {
  const count = block.ends.length;
  const oversized = [...block.oversized].map(([seq, line]) => [
    seq,
    line.type,
    line.time.getTime(),
    line.bytes,
  ]);
  const json = Buffer.from(
    JSON.stringify({ t: block.lastTimeMs, o: oversized, c: block.checkpoint }),
  );
  const body = Buffer.allocUnsafe(8 + count * 9 + json.length);
  body.writeUInt32LE(block.firstSeq, 0);
  body.writeUInt32LE(count, 4);
  Buffer.from(block.ends.buffer, block.ends.byteOffset, count * 8).copy(body, 8);
  Buffer.from(block.flags.buffer, block.flags.byteOffset, count).copy(body, 8 + count * 8);
  json.copy(body, 8 + count * 9);
  return frame(blockKind, body);
}

/**
 * Reads the records of an index file up to the first that is torn, fails its CRC or does
 * not follow the one before (seqs contiguous from 0, offsets growing); what is before it
 * stays usable.
 */
export function decodeIndexFile(data: Buffer): DecodedIndexFile {
  let header: IndexFileHeader | undefined;
  const blocks: PersistedBlock[] = [];
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
      if (block === undefined || block.firstSeq !== expected || !growing(block.ends, lastEnd)) {
        problem = `record at byte ${at}: not the block of events from seq ${expected}`;
        break;
      }
      blocks.push(block);
      lastEnd = block.ends[block.ends.length - 1] as number;
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
  return out;
}

function readRecord(
  data: Buffer,
  at: number,
): { kind: number; body: Buffer; next: number } | string {
  if (at + 4 > data.length) return 'torn (no length)';
  const length = data.readUInt32LE(at);
  const next = at + 4 + length + 4;
  if (length < 1 || next > data.length) return 'torn (shorter than its length)';
  const payload = data.subarray(at + 4, at + 4 + length);
  if (crc32(payload) !== data.readUInt32LE(at + 4 + length)) return 'checksum mismatch';
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

function decodeBlock(body: Buffer): PersistedBlock | undefined {
  if (body.length < 8) return undefined;
  const firstSeq = body.readUInt32LE(0);
  const count = body.readUInt32LE(4);
  if (count !== indexBlockSize || body.length < 8 + count * 9) return undefined;
  const ends = new Float64Array(count);
  Buffer.from(ends.buffer).set(body.subarray(8, 8 + count * 8));
  const flags = new Uint8Array(body.subarray(8 + count * 8, 8 + count * 9));
  const json = parseJson(body.subarray(8 + count * 9));
  if (typeof json !== 'object' || json === null) return undefined;
  const { t, o, c } = json as { t?: unknown; o?: unknown; c?: unknown };
  if (typeof t !== 'number' || !Array.isArray(o) || c === undefined) return undefined;
  const oversized = new Map<number, OversizedLine>();
  for (const entry of o as unknown[]) {
    if (!Array.isArray(entry) || entry.length !== 4) return undefined;
    const [seq, type, time, bytes] = entry as unknown[];
    if (typeof seq !== 'number' || typeof type !== 'string') return undefined;
    if (typeof time !== 'number' || typeof bytes !== 'number') return undefined;
    if (!((flags[seq - firstSeq] ?? 0) & oversizedFlag)) return undefined;
    oversized.set(seq, { type, time: new Date(time), bytes });
  }
  for (let i = 0; i < count; i += 1) {
    if ((flags[i] as number) & oversizedFlag && !oversized.has(firstSeq + i)) return undefined;
  }
  return { firstSeq, ends, flags, oversized, lastTimeMs: t, checkpoint: c as JsonValue };
}

/** True when every end is past the one before, starting past `after`. */
function growing(ends: Float64Array, after: number): boolean {
  let last = after;
  for (const end of ends) {
    if (!(end > last) || !Number.isSafeInteger(end)) return false;
    last = end;
  }
  return true;
}

function parseJson(bytes: Buffer): unknown {
  try {
    return JSON.parse(bytes.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
