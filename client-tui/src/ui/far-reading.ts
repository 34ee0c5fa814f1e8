import {
  createHistoryWindow,
  createSessionWindow,
  historyAsSessionWindow,
  type BackoffOptions,
  type SessionWindow,
} from '@dsh/client-live';
import type { SessionClient } from '../data/session-client.js';
import { releaseMemory } from './collect-garbage.js';
import type { OpenSession, TuiState } from './tui-state.js';

/** Older pages the live window takes; paging further goes on in a bounded reading window. */
export const livePages = 4;

/** Loads a reading window holds (client-live's `maxPages`): the rest is fetched again. */
export const readingPages = 6;

/** How long after the last page dropped a garbage collection runs (paging has paused). */
export const settleMs = 1_000;

/** What reading far back needs: the client to page with, and the redraw. */
export interface FarReadingDeps {
  readonly client: SessionClient;
  readonly backoff?: BackoffOptions;
  readonly onChange: () => void;
}

/**
 * Paging the conversation pane past the live window's first few older pages. The live
 * window keeps following (status, prompts and the queue read it), reopened at its tail so
 * its older pages go; the pane shows a history window of at most `readingPages` loads that
 * drops the loads far from the reader and fetches them again when paged back to, so memory
 * follows the viewport however far back the reader goes.
 */
export interface FarReading {
  /** The page before the shown window: the live window's own, or the reading window's. */
  older(state: TuiState): void;
  /** The loads after a reading window's end, and back to the live window where they meet. */
  newer(state: TuiState): void;
  /** Leaves the reading window for the live one (End); false when none is shown. */
  end(state: TuiState): boolean;
}

/** The window the conversation pane shows: the reading window once it has opened. */
export function shownWindow(open: OpenSession): SessionWindow {
  return open.reading?.history.state.opened === true ? open.reading.window : open.window;
}

/** Closes the open session's windows (the live one and a reading one). */
export function closeWindows(open: OpenSession): void {
  open.window.close();
  open.reading?.history.close();
}

/** Creates the paging of the conversation pane over `deps()` (read at each use). */
export function createFarReading(deps: () => FarReadingDeps): FarReading {
  return {
    older(state) {
      const open = state.open;
      if (open === undefined || !open.view.frame().atTop) return;
      const shown = shownWindow(open).state;
      if (!shown.opened || !shown.hasMore || shown.loadingOlder) return;
      if (open.reading !== undefined) {
        if (open.reading.history.state.opened) void pageReading(open, 'older');
        return;
      }
      if (open.olderPages < livePages) {
        open.olderPages++;
        void open.window.loadOlder();
        return;
      }
      startReading(state, open, deps());
    },
    newer(state) {
      const open = state.open;
      const reading = open?.reading;
      if (open === undefined || reading === undefined || !open.view.frame().atBottom) return;
      if (meetsLive(open)) return backToLive(open, deps());
      const { hasNewer, loading, opened } = reading.history.state;
      if (!opened || loading) return;
      if (hasNewer) void pageReading(open, 'newer');
      // The session outgrew the live window while the reader was far back: its end it is.
      else leaveReading(open, true);
    },
    end(state) {
      const open = state.open;
      if (open?.reading === undefined) return false;
      leaveReading(open, true);
      return true;
    },
  };
}

/** Opens the reading window on the page before the live window's; shown once it opened. */
function startReading(state: TuiState, open: OpenSession, deps: FarReadingDeps): void {
  const history = createHistoryWindow({
    client: deps.client,
    sessionId: open.id,
    seq: Math.max(0, open.window.state.snapshot.firstSeq - 1),
    maxPages: readingPages,
    onChange: deps.onChange,
  });
  open.reading = { history, window: historyAsSessionWindow(history) };
  void history.opened.then(() => {
    if (open.reading?.history !== history || history.state.error !== undefined) return;
    open.view.setLiveEnd(false);
    reopenLive(state, open, deps, () => open.reading?.history === history);
  });
}

/** Loads a page into the reading window; a load that dropped a far one collects after. */
async function pageReading(open: OpenSession, way: 'older' | 'newer'): Promise<void> {
  const reading = open.reading;
  if (reading === undefined) return;
  const before = reading.history.state.snapshot;
  await (way === 'older' ? reading.history.loadOlder() : reading.history.loadNewer());
  const after = reading.history.state.snapshot;
  const dropped = way === 'older' ? after.endSeq < before.endSeq : after.firstSeq > before.firstSeq;
  if (dropped) releaseMemory(settleMs);
}

/** True when the live window holds what comes right after the reading window. */
function meetsLive(open: OpenSession): boolean {
  const reading = open.reading?.history.state;
  const live = open.window.state;
  return reading !== undefined && live.opened && live.snapshot.firstSeq <= reading.snapshot.endSeq;
}

/**
 * Shows the live window where the reading window meets it, at the same item: the live
 * window first takes the page before its own unless it holds the whole reading window, so
 * the rows on screen (the reading window's last) are in it.
 */
function backToLive(open: OpenSession, deps: FarReadingDeps): void {
  const reading = open.reading;
  const live = open.window.state;
  if (reading === undefined) return;
  if (live.snapshot.firstSeq <= reading.history.state.snapshot.firstSeq || !live.hasMore) {
    return leaveReading(open, false);
  }
  if (live.loadingOlder) return;
  open.olderPages++;
  void open.window.loadOlder().then(() => {
    if (open.reading !== reading) return;
    leaveReading(open, false);
    deps.onChange();
  });
}

/** Shows the live window again: at the same item, or at its end (`follow`). */
function leaveReading(open: OpenSession, follow: boolean): void {
  open.reading?.history.close();
  open.reading = undefined;
  open.view.setLiveEnd(true);
  if (follow) open.view.follow();
  releaseMemory(settleMs);
}

/**
 * Replaces the open session's live window with a fresh one at its tail once that one has
 * opened (the old one serves until then), so the older pages the old one loaded go, and
 * collects after. Nothing is replaced unless `open` is still the open session and `still()`
 * holds then.
 */
export function reopenLive(
  state: TuiState,
  open: OpenSession,
  deps: FarReadingDeps,
  still: () => boolean,
): void {
  let previous: SessionWindow | undefined = open.window;
  const window: SessionWindow = createSessionWindow({
    client: deps.client,
    sessionId: open.id,
    ...(deps.backoff ? { backoff: deps.backoff } : {}),
    onChange: () => {
      if (previous !== undefined && window.state.opened) {
        const old = previous;
        previous = undefined;
        if (state.open === open && open.window === old && still()) {
          old.close();
          open.window = window;
          open.olderPages = 0;
          releaseMemory(settleMs);
        } else window.close();
      }
      if (open.window === window) deps.onChange();
    },
  });
}
