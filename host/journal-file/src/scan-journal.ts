import type { FileHandle } from 'node:fs/promises';
import {
  type ProjectionRegistry,
  messageTypes,
  decodeHeaderLine,
  type JournalHeader,
  checkEventHead,
  eventFromHead,
  ProjectionCheckpoints,
  lineHeadBytes,
  maxEventLineBytes,
  parseLineHead,
} from '@dsh/journal';
import { JournalIndex } from './journal-index.js';
import type { RestoredIndex } from './persisted-index.js';
import { scanLines } from './scan-lines.js';

/** What one pass over a journal file builds. */
export interface ScannedJournal {
  readonly header: JournalHeader;
  readonly index: JournalIndex;
  readonly checkpoints: ProjectionCheckpoints;
  /** Time of the last event; undefined for an empty journal. */
  readonly lastTime: Date | undefined;
  /** Bytes past the last good line (a torn tail) that a writer must cut off. */
  readonly tornFrom: number | undefined;
}

/** Why a scan failed: the 1-based file line at fault (0 = the whole file) and the reason. */
export interface ScanFailure {
  readonly line: number;
  readonly reason: string;
}

/**
 * Reads a journal file once, in chunks: checks the header (format version, session
 * id), validates every event line (JSON object, seq, time, type), indexes line offsets
 * and message boundaries, and folds the projections, decoding only the fields a
 * projection reads. A line over `maxEventLineBytes` is never held whole: its seq, time
 * and type are read from its first bytes and it is indexed as oversized (served as a
 * stand-in, folded into no projection). An unterminated or unparseable last line is
 * torn: reported as `tornFrom`, not an error. Any other bad line fails the scan.
 * With `resume` (an index read back), the scan starts past its last indexed line.
 */
export async function scanJournal(
  fd: FileHandle,
  sessionId: string,
  registry: ProjectionRegistry,
  resume?: RestoredIndex,
): Promise<{ ok: true; value: ScannedJournal } | { ok: false; failure: ScanFailure }> {
  let header: JournalHeader | undefined = resume?.header;
  let index: JournalIndex | undefined = resume?.index;
  const checkpoints = resume?.checkpoints ?? new ProjectionCheckpoints(registry);
  let lastTime: Date | undefined = resume?.lastTime;
  let failure: ScanFailure | undefined;
  let unparsed: { offset: number; line: number; reason: string } | undefined;
  let lineNo = resume === undefined ? 0 : resume.index.length + 1;

  const scan = await scanLines(
    fd,
    resume?.index.end ?? 0,
    (bytes, offset, size) => {
      lineNo += 1;
      if (size > bytes.length) return oversized(bytes, offset, size);
      return line(bytes, offset);
    },
    { maxLineBytes: maxEventLineBytes, headBytes: lineHeadBytes },
  );

  function oversized(prefix: Buffer, offset: number, size: number): boolean {
    if (header === undefined) {
      failure = { line: 1, reason: `the header line is ${size} bytes: not a journal header` };
      return false;
    }
    if (unparsed !== undefined) {
      failure = { line: unparsed.line, reason: unparsed.reason };
      return false;
    }
    const head = parseLineHead(prefix.toString('utf8'));
    const seq = index!.length;
    if (head === undefined) {
      const reason = `a ${size}-byte line that does not start with {"seq":...,"time":...,"type":...}`;
      unparsed = { offset, line: lineNo, reason };
      return true;
    }
    if (head.seq !== seq) {
      failure = { line: lineNo, reason: `seq ${head.seq} where ${seq} was expected` };
      return false;
    }
    index!.pushOversized(size + 1, { type: head.type, time: head.time, bytes: size });
    checkpoints.advance(undefined);
    lastTime = head.time;
    return true;
  }

  function line(bytes: Buffer, offset: number): boolean {
    const text = bytes.toString('utf8');
    if (header === undefined) {
      const decoded = decodeHeaderLine(text);
      if (!decoded.ok) failure = { line: 1, reason: decoded.error };
      else if (decoded.value.sessionId !== sessionId) {
        failure = {
          line: 1,
          reason: `the header names session ${JSON.stringify(decoded.value.sessionId)}, not the file's ${JSON.stringify(sessionId)}`,
        };
      } else {
        header = decoded.value;
        index = new JournalIndex(offset + bytes.length + 1);
      }
      return failure === undefined;
    }
    if (unparsed !== undefined) {
      failure = { line: unparsed.line, reason: unparsed.reason };
      return false;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      unparsed = { offset, line: lineNo, reason: `not valid JSON (${(error as Error).message})` };
      return true;
    }
    const seq = index!.length;
    const head = checkEventHead(parsed, seq);
    if (!head.ok) {
      failure = { line: lineNo, reason: head.error };
      return false;
    }
    const { type } = head.value;
    index!.push(bytes.length + 1, messageTypes.has(type), head.value.time.getTime());
    const reads = registry.reads.get(type);
    checkpoints.advance(reads === undefined ? undefined : eventFromHead(head.value, reads));
    lastTime = head.value.time;
    return true;
  }

  if (failure !== undefined) return { ok: false, failure };
  if (header === undefined || index === undefined) {
    const reason = scan.size === 0 ? 'the file is empty' : 'the header line is incomplete';
    return { ok: false, failure: { line: 1, reason } };
  }
  const goodEnd = unparsed?.offset ?? scan.end;
  return {
    ok: true,
    value: {
      header,
      index,
      checkpoints,
      lastTime,
      tornFrom: goodEnd < scan.size ? goodEnd : undefined,
    },
  };
}
