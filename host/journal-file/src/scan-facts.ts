import { open } from 'node:fs/promises';
import {
  decodeEventLine,
  decodeHeaderLine,
  factTypes,
  foldFacts,
  lineHeadBytes,
  noFacts,
  parseLineHead,
  type JournalHeader,
  type SessionFacts,
} from '@dsh/journal';
import { scanLines } from './scan-lines.js';

/** Lines longer than this are not decoded for facts (only counted): none of them is a prompt. */
const maxFactLineBytes = 1024 * 1024;

/** How far a facts scan got: everything a catalog entry knows of a journal's events. */
export interface FactsCursor {
  readonly header: JournalHeader | undefined;
  /** Events folded: the seq the next line must carry. */
  readonly length: number;
  /** Byte offset just past the last complete line folded (0 before the header). */
  readonly bytes: number;
  /** Time of the last event folded; undefined before any. */
  readonly lastTime: Date | undefined;
  readonly facts: SessionFacts;
}

/** A cursor at the start of a file. */
export const startCursor: FactsCursor = {
  header: undefined,
  length: 0,
  bytes: 0,
  lastTime: undefined,
  facts: noFacts,
};

/** The result of a facts scan: the cursor it reached, or why the file cannot be read. */
export type FactsScan =
  { ok: true; cursor: FactsCursor } | { ok: false; cursor: FactsCursor; error: string };

/**
 * Folds the session facts of a journal file from `from` (a cursor of an earlier scan of
 * the same file, or `startCursor`) to its last complete line, so a catalog catches up on
 * appends by reading only the new bytes. Only the lines whose type the facts read are
 * parsed whole; every other line is counted from its head (`{"seq":N,"time":..,"type":..}`).
 * A bad line stops the scan with the cursor before it and the reason; a torn last
 * line is left for the next scan.
 */
export async function scanFacts(path: string, sessionId: string, from: FactsCursor) {
  const fd = await open(path, 'r');
  try {
    let cursor = from;
    let error: string | undefined;
    await scanLines(
      fd,
      from.bytes,
      (line, offset, size) => {
        const next = foldLine(cursor, sessionId, line, offset, size);
        if (typeof next === 'string') {
          error = `line ${cursor.length + (cursor.header === undefined ? 1 : 2)}: ${next}`;
          return false;
        }
        cursor = next;
        return true;
      },
      { maxLineBytes: maxFactLineBytes, headBytes: lineHeadBytes },
    );
    const result: FactsScan =
      error === undefined ? { ok: true, cursor } : { ok: false, cursor, error };
    return result;
  } finally {
    await fd.close();
  }
}

/** The cursor after one line, or why the line is bad. */
function foldLine(
  cursor: FactsCursor,
  sessionId: string,
  line: Buffer,
  offset: number,
  size: number,
): FactsCursor | string {
  const bytes = offset + size + 1;
  if (cursor.header === undefined) {
    if (size > line.length) return 'the header line is too long';
    const header = decodeHeaderLine(line.toString('utf8'));
    if (!header.ok) return header.error;
    if (header.value.sessionId !== sessionId) {
      return `the header names session ${header.value.sessionId}`;
    }
    return { ...cursor, header: header.value, bytes };
  }
  const text = line.toString('utf8', 0, Math.min(line.length, lineHeadBytes));
  const head = parseLineHead(text);
  if (head === undefined || head.seq !== cursor.length) {
    return `not an event line with seq ${cursor.length}`;
  }
  let facts = cursor.facts;
  if (factTypes.has(head.type) && size === line.length) {
    const decoded = decodeEventLine(line.toString('utf8'), cursor.length);
    if (!decoded.ok) return decoded.error;
    facts = foldFacts(facts, decoded.value);
  }
  return { header: cursor.header, length: cursor.length + 1, bytes, lastTime: head.time, facts };
}
