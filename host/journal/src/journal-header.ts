import type { LineResult } from './journal-line.js';

/** The journal format version this host writes and reads. */
export const formatVersion = 1;

/** The first line of every journal file: facts about the session. */
export interface JournalHeader {
  formatVersion: number;
  sessionId: string;
  cwd: string;
  /** Parent session id for a child session; empty for a root. */
  parentId: string;
  /** RFC 3339 creation time. */
  createdAt: string;
  model: string;
  title: string;
  /**
   * The agent whose transcript this session was imported from (`claude-code`, `codex`);
   * absent for sessions this host runs. Imported sessions take no input: the person
   * continues one as a new session.
   */
  origin?: string;
}

/** Encodes the header line (no trailing newline). */
export function encodeHeaderLine(header: JournalHeader): string {
  return JSON.stringify(header);
}

/**
 * Decodes the header line. `formatVersion` must be a whole number from 1 to this host's
 * version: a newer one asks for an upgrade, anything else (negative, fractional, zero)
 * is refused as not a journal format.
 */
export function decodeHeaderLine(line: string): LineResult<JournalHeader> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ok: false, error: 'the header line is not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return { ok: false, error: 'the header line is not a JSON object' };
  }
  const h = parsed as Record<string, unknown>;
  if (typeof h.formatVersion !== 'number') {
    return { ok: false, error: 'the header has no formatVersion' };
  }
  if (!Number.isInteger(h.formatVersion) || h.formatVersion < 1) {
    return {
      ok: false,
      error: `the header's formatVersion ${String(h.formatVersion)} is not a journal format version (a whole number from 1 to ${formatVersion})`,
    };
  }
  if (h.formatVersion > formatVersion) {
    return {
      ok: false,
      error: `journal format ${h.formatVersion} is newer than this host's ${formatVersion}: upgrade dsh`,
    };
  }
  if (typeof h.sessionId !== 'string') return { ok: false, error: 'the header has no sessionId' };
  const text = (key: string): string => (typeof h[key] === 'string' ? (h[key] as string) : '');
  return {
    ok: true,
    value: {
      formatVersion: h.formatVersion,
      sessionId: h.sessionId,
      cwd: text('cwd'),
      parentId: text('parentId'),
      createdAt: text('createdAt'),
      model: text('model'),
      title: text('title'),
      ...(text('origin') === '' ? {} : { origin: text('origin') }),
    },
  };
}
