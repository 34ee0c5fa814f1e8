import type { LineResult } from './journal-line.js';

const sessionIdPattern = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Validates a session id before it touches the file system: letters, digits, `-` and
 * `_` only, starting with a letter or digit, at most 128 characters. This rules out
 * path traversal (`../x`), separators and hidden files.
 */
export function parseSessionId(id: string): LineResult<string> {
  if (sessionIdPattern.test(id)) return { ok: true, value: id };
  return {
    ok: false,
    error: `invalid session id ${JSON.stringify(id.slice(0, 140))}: use 1-128 letters, digits, '-' or '_'`,
  };
}

const idCollator = new Intl.Collator();

/**
 * Orders session ids as `a.localeCompare(b)` does (the session list's tie-break) through
 * one shared collator: `localeCompare` builds a collator per call, which makes sorting a
 * thousand sessions of equal time cost tens of milliseconds of the host's event loop.
 */
export function compareSessionIds(a: string, b: string): number {
  return idCollator.compare(a, b);
}
