/** The kinds of field a search looks in (the proto's `SearchKind` without its zero). */
export type SearchKindName = 'prompt' | 'assistant' | 'tool_arguments' | 'tool_output';

/** Every search kind, in the proto's order. */
export const searchKindNames: readonly SearchKindName[] = [
  'prompt',
  'assistant',
  'tool_arguments',
  'tool_output',
];

/** A checked search request (see `checkSearchQuery`). */
export interface SearchQuery {
  /** What to find: plain text, or a ripgrep (Rust `regex`) pattern when `regex`. */
  readonly text: string;
  readonly caseSensitive: boolean;
  readonly regex: boolean;
  /** One session, or every session when undefined. */
  readonly sessionId: string | undefined;
  /** The kinds searched; never empty. */
  readonly kinds: ReadonlySet<SearchKindName>;
  /** Only hits on these tools; empty for any. */
  readonly toolNames: ReadonlySet<string>;
  /** Most hits per page. */
  readonly limit: number;
  /** Where a previous page stopped; undefined for the first page. */
  readonly cursor: SearchCursor | undefined;
}

/** Where a search goes on: a session (by its list order) and a byte offset in its journal. */
export interface SearchCursor {
  readonly sessionId: string;
  /** The session's last-event time (ms) when the cursor was made: its place in the order. */
  readonly updatedAtMs: number;
  /** Byte offset of the next line to search in the session's journal; -1 when it is done. */
  readonly offset: number;
  /**
   * When the first page started (ms): later pages order sessions by their last event at
   * that time, so a session appended to meanwhile keeps its place and is neither skipped
   * nor searched twice.
   */
  readonly asOfMs: number;
}

/** A match inside a snippet, in UTF-16 code units. */
export interface SnippetMatch {
  readonly start: number;
  readonly end: number;
}

/** One event that matched. */
export interface SearchHit {
  readonly sessionId: string;
  readonly seq: number;
  readonly eventType: string;
  readonly kind: SearchKindName;
  readonly toolName: string;
  readonly callId: string;
  readonly snippet: string;
  readonly matches: readonly SnippetMatch[];
}

/** One page of hits and where the next one starts. */
export interface SearchPage {
  readonly hits: SearchHit[];
  /** Undefined when the search is complete. */
  readonly next: SearchCursor | undefined;
  /** True when the page stopped at the time or output budget. */
  readonly timeLimited: boolean;
}

/**
 * Searches sessions without opening them: a backend implements it over its storage (the
 * file backend runs ripgrep over the journal files). Throws `JournalError`: not_found for
 * an unknown session, invalid_argument for a pattern that does not compile.
 */
export interface SessionSearch {
  search(query: SearchQuery, options: { readonly signal: AbortSignal }): Promise<SearchPage>;
}
