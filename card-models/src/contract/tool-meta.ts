import type { FileDiff } from './hunks.js';

/**
 * The `meta` shapes first-party tools record (SPEC section 5). Meta reaches clients as
 * JSON text and is untrusted there: card models check it before use.
 */

/** `read`: where the shown lines come from. */
export interface ReadMeta {
  path: string;
  /** First line shown, 1-based. */
  offset: number;
  /** Number of lines shown. */
  lines: number;
  totalLines: number;
  /** Highlighting language guessed from the file name, or '' when unknown. */
  lang: string;
}

/** `write` and `edit`: the applied change per file. */
export interface DiffMeta {
  diffs: FileDiff[];
}

/** `grep`: matches grouped by file. */
export interface MatchesMeta {
  shape: 'matches';
  files: { path: string; matches: { lineNumber: number; line: string }[] }[];
  truncated: boolean;
  /** Total matches found, including those not listed. */
  total: number;
}

/** `glob`: matching paths. */
export interface PathsMeta {
  shape: 'paths';
  paths: string[];
  truncated: boolean;
  total: number;
}

/** `web_search`: sources and an optional answer. */
export interface WebSearchMeta {
  sources: { url: string; title: string; snippet: string; publishedAt?: string }[];
  answer?: string;
  truncated: boolean;
}

/** `web_fetch`: the final URL after redirects and the response status. */
export interface WebFetchMeta {
  url: string;
  statusCode: number;
  truncated: boolean;
}
