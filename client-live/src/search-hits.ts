import type { Client } from '@connectrpc/connect';
import type { SearchHit, SearchKind, SessionService } from '@dsh/gen/service';
import { createChangeNotifier } from './change-notifier.js';
import { describeError } from './connection-state.js';

/** A search request without its cursor (the list pages it); see `SearchRequest`. */
export interface SearchRequestInit {
  readonly query: string;
  readonly caseSensitive?: boolean;
  readonly regex?: boolean;
  readonly sessionId?: string;
  readonly kinds?: SearchKind[];
  readonly toolNames?: string[];
  readonly limit?: number;
}

/** Options of `createSearchHits`. */
export interface SearchHitsOptions {
  readonly client: Client<typeof SessionService>;
  readonly request: SearchRequestInit;
  readonly onChange?: (state: SearchHitsState) => void;
}

/** The hits found so far and the one selected. Immutable; each change makes a new one. */
export interface SearchHitsState {
  readonly hits: readonly SearchHit[];
  /** Index of the selected hit; -1 before any is selected. */
  readonly selected: number;
  readonly loading: boolean;
  /** True once the host said there is nothing more. */
  readonly complete: boolean;
  /** True when the last page stopped at the host's time budget. */
  readonly timeLimited: boolean;
  readonly error: string | undefined;
}

/** A search's hits, paged from the host as the reader moves through them. */
export interface SearchHits {
  readonly state: SearchHitsState;
  /** Resolves once the first page is in. */
  readonly ready: Promise<void>;
  /** Loads the next page; no-op while one loads or when complete. */
  loadMore(): Promise<void>;
  /** Selects the next hit (loading the next page at the last one); the hit, or undefined. */
  next(): Promise<SearchHit | undefined>;
  /** Selects the previous hit; the hit, or undefined at the first. */
  previous(): SearchHit | undefined;
  /** Selects the hit at `index`. */
  select(index: number): SearchHit | undefined;
  close(): void;
}

/**
 * Runs a search and keeps its hits: the first page at once, later pages when `next()`
 * reaches the last hit or a list scrolls to its end (`loadMore`). Both clients move
 * between hits with it (n/N, next/previous) and open each through `createHistoryWindow`.
 */
export function createSearchHits(options: SearchHitsOptions): SearchHits {
  const closed = new AbortController();
  let cursor = '';
  let inFlight: Promise<void> | undefined;
  let fields: SearchHitsState = {
    hits: [],
    selected: -1,
    loading: false,
    complete: false,
    timeLimited: false,
    error: undefined,
  };
  const notifier = createChangeNotifier(() => options.onChange?.(fields));
  const update = (change: Partial<SearchHitsState>): void => {
    fields = { ...fields, ...change };
    notifier.schedule();
  };

  const loadMore = (): Promise<void> => {
    if (fields.complete || closed.signal.aborted) return Promise.resolve();
    inFlight ??= (async () => {
      update({ loading: true });
      try {
        const response = await options.client.search(
          { ...options.request, cursor },
          { signal: closed.signal },
        );
        cursor = response.nextCursor;
        update({
          hits: [...fields.hits, ...response.hits],
          complete: cursor === '',
          timeLimited: response.timeLimited,
          error: undefined,
        });
      } catch (failure) {
        if (!closed.signal.aborted) update({ error: `search failed: ${describeError(failure)}` });
      } finally {
        update({ loading: false });
        inFlight = undefined;
        notifier.flush();
      }
    })();
    return inFlight;
  };

  const select = (index: number): SearchHit | undefined => {
    const hit = fields.hits[index];
    if (hit !== undefined) update({ selected: index });
    return hit;
  };

  return {
    get state() {
      return fields;
    },
    ready: loadMore(),
    loadMore,
    async next() {
      if (fields.selected + 1 >= fields.hits.length && !fields.complete) await loadMore();
      return select(Math.min(fields.selected + 1, fields.hits.length - 1));
    },
    previous() {
      return select(Math.max(0, fields.selected - 1));
    },
    select,
    close() {
      closed.abort();
      notifier.cancel();
    },
  };
}

/**
 * Splits a snippet into plain and matched parts, in order, so a client highlights the
 * matches without index arithmetic of its own.
 */
export function snippetParts(
  hit: Pick<SearchHit, 'snippet' | 'matches'>,
): { text: string; match: boolean }[] {
  const parts: { text: string; match: boolean }[] = [];
  let at = 0;
  for (const m of hit.matches) {
    if (m.start < at || m.end > hit.snippet.length) continue;
    if (m.start > at) parts.push({ text: hit.snippet.slice(at, m.start), match: false });
    parts.push({ text: hit.snippet.slice(m.start, m.end), match: true });
    at = m.end;
  }
  if (at < hit.snippet.length) parts.push({ text: hit.snippet.slice(at), match: false });
  return parts;
}
