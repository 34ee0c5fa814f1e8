import { createSearchHits, type SearchHits } from '@dsh/client-live';
import type { SearchHit } from '@dsh/gen/service';
import { theme } from '../cards/theme.js';
import { oneLine } from '../cards/text-lines.js';
import { seg, type Segment, type StyledLine } from '../text/styled-line.js';
import { truncateLine } from '../text/text-width.js';
import type { SessionClient } from '../data/session-client.js';
import type { Key, KeyContext } from './key-actions.js';
import { sessionTitle } from './session-title.js';
import type { TuiState } from './tui-state.js';

/**
 * The search of every session (`/` in the session list): the query typed, the hits of
 * its last run (`ran` is the query they are for), and the highlighted hit.
 */
export interface AllSearch {
  query: string;
  ran: string | undefined;
  hits: SearchHits | undefined;
  cursor: number;
}

// One character that is not a control character.
// eslint-disable-next-line no-control-regex -- control characters are what it excludes
const printable = /^[^\x00-\x1f\x7f-\x9f]$/u;

/** Hits left below the highlighted one when the next page is asked for. */
const pageAhead = 5;

/** Opens the all-sessions search with an empty query. */
export function beginAllSearch(state: TuiState): void {
  state.allSearch = { query: '', ran: undefined, hits: undefined, cursor: 0 };
}

/** Closes the all-sessions search and stops its paging. */
export function endAllSearch(state: TuiState): void {
  state.allSearch?.hits?.close();
  state.allSearch = undefined;
}

/** What the all-sessions search needs: the host, and how a hit is opened at its item. */
export interface AllSearchDeps {
  readonly client: SessionClient;
  /** Opens the hit's session and selects the hit's item (the open session's search). */
  readonly openHit: (state: TuiState, context: KeyContext, hit: SearchHit) => void;
}

/**
 * Keys of the all-sessions search: typing edits the query, Enter runs it (or, with the
 * hits of the query shown, opens the highlighted hit's session at the hit), ↑ ↓ (C-p C-n)
 * move, Esc closes. True while the search is open.
 */
export function onAllSearch(
  state: TuiState,
  ch: string | undefined,
  key: Key,
  context: KeyContext,
  deps: AllSearchDeps,
): boolean {
  const search = state.allSearch;
  if (search === undefined) return false;
  const hits = search.hits?.state.hits ?? [];
  switch (key.full) {
    case 'escape':
    case 'C-g':
      endAllSearch(state);
      return true;
    case 'return':
    case 'enter': {
      const hit = hits[search.cursor];
      if (search.ran === search.query && hit !== undefined) {
        endAllSearch(state);
        deps.openHit(state, context, hit);
      } else run(search, deps.client, context);
      return true;
    }
    case 'up':
    case 'C-p':
      search.cursor = Math.max(0, search.cursor - 1);
      return true;
    case 'down':
    case 'C-n':
      search.cursor = Math.min(Math.max(0, hits.length - 1), search.cursor + 1);
      if (search.cursor >= hits.length - pageAhead) void search.hits?.loadMore();
      return true;
    case 'backspace':
      search.query = Array.from(search.query).slice(0, -1).join('');
      return true;
    case 'C-u':
      search.query = '';
      return true;
    default:
      if (ch !== undefined && !key.ctrl && !key.meta && printable.test(ch)) search.query += ch;
      return true;
  }
}

function run(search: AllSearch, client: SessionClient, context: KeyContext): void {
  if (search.query.trim() === '') return;
  search.hits?.close();
  search.ran = search.query;
  search.cursor = 0;
  search.hits = createSearchHits({
    client,
    request: { query: search.query },
    onChange: () => context.flush(),
  });
}

/** A hit's snippet as one line, its matches in bold and inverse. */
function snippetLine(hit: SearchHit): StyledLine {
  const line: Segment[] = [];
  let at = 0;
  for (const match of hit.matches) {
    if (match.start < at || match.end > hit.snippet.length) continue;
    line.push(seg(oneLine(hit.snippet.slice(at, match.start)), theme.dim));
    line.push(
      seg(oneLine(hit.snippet.slice(match.start, match.end)), { bold: true, inverse: true }),
    );
    at = match.end;
  }
  line.push(seg(oneLine(hit.snippet.slice(at)), theme.dim));
  return line;
}

/** Where a hit is: its session's title, and the tool or kind of event and its seq. */
function hitHead(state: TuiState, hit: SearchHit): StyledLine {
  const summary = state.list?.sessions.get(hit.sessionId);
  const what = hit.toolName !== '' ? hit.toolName : hit.eventType;
  return [
    seg(oneLine(sessionTitle(state, hit.sessionId, summary)), theme.bold),
    seg(`  ${oneLine(what)} · seq ${hit.seq}`, theme.dim),
  ];
}

/** The search drawn over the panes: the query, the state of its hits, then two rows a hit. */
export function allSearchLines(state: TuiState, cols: number, height: number): StyledLine[] {
  const search = state.allSearch;
  if (search === undefined) return [];
  const found = search.hits?.state;
  const hits = found?.hits ?? [];
  search.cursor = Math.min(search.cursor, Math.max(0, hits.length - 1));
  const count =
    found === undefined
      ? 'Enter searches every session'
      : found.error !== undefined
        ? found.error
        : found.loading && hits.length === 0
          ? 'searching…'
          : `${hits.length}${found.complete ? '' : '+'} hits${search.ran !== search.query ? ' · Enter searches again' : ''}`;
  const head: StyledLine[] = [
    truncateLine(
      [
        seg('Search all sessions ', theme.bold),
        seg('› ', theme.user),
        seg(oneLine(search.query)),
        seg('▏', theme.user),
        seg(
          `  ${count} · ↑↓ move · Enter open · Esc close`,
          found?.error ? theme.error : theme.dim,
        ),
      ],
      cols,
    ),
    [],
  ];
  const room = Math.max(1, Math.floor((height - head.length) / 2));
  const top = Math.max(0, search.cursor - room + 1);
  const rows = hits.slice(top, top + room).flatMap((hit, i) => {
    const selected = top + i === search.cursor;
    const headLine = truncateLine([seg(selected ? '▌ ' : '  '), ...hitHead(state, hit)], cols);
    return [
      selected ? headLine.map((s) => seg(s.text, { ...s.style, inverse: true })) : headLine,
      truncateLine([seg('    '), ...snippetLine(hit)], cols),
    ];
  });
  if (found?.complete && hits.length === 0) rows.push([seg('  no hits', theme.dim)]);
  return [...head, ...rows];
}
