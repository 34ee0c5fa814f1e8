import type { Client } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { SessionService } from '@dsh/gen/service';
import { createConversation, type ConversationSnapshot } from '@dsh/card-models';
import { createChangeNotifier } from './change-notifier.js';
import { describeError } from './connection-state.js';
import { pageEvents } from './follow-session.js';
import type { SessionWindow, SessionWindowState } from './session-window.js';

/** Options of `createHistoryWindow`. */
export interface HistoryWindowOptions {
  readonly client: Client<typeof SessionService>;
  readonly sessionId: string;
  /** The event to show: the window opens on the page that holds it. */
  readonly seq: number;
  /** Messages per page; 50 by default. */
  readonly pageSize?: number;
  /**
   * Loads (pages) the window holds at most; a load past it drops the loads farthest from
   * the one just made (the newest after `loadOlder`, the oldest after `loadNewer`), which
   * load again when paged to, so the memory a reader holds stays bounded however far they
   * page. Unbounded when absent.
   */
  readonly maxPages?: number;
  /** Called after changes, coalesced: at most once per task. */
  readonly onChange?: (state: HistoryWindowState) => void;
}

/** A window on a stretch of a session's history. Immutable; each change makes a new one. */
export interface HistoryWindow {
  readonly state: HistoryWindowState;
  /** Resolves once the page holding `seq` is loaded (or failed: see `state.error`). */
  readonly opened: Promise<void>;
  /** Prepends the page before the window; no-op while a page loads or none is left. */
  loadOlder(): Promise<void>;
  /**
   * Appends the events after the window, about a page; no-op at the end it opened with
   * (or at the end the session had when a dropped load is fetched again).
   */
  loadNewer(): Promise<void>;
  close(): void;
}

/** What a client shows of a history window. */
export interface HistoryWindowState {
  readonly sessionId: string;
  /** The event the window was opened on. */
  readonly seq: number;
  readonly snapshot: ConversationSnapshot;
  readonly opened: boolean;
  /** True while events older than the window exist. */
  readonly hasMore: boolean;
  /** True while events newer than the window exist (as of its opening). */
  readonly hasNewer: boolean;
  readonly loading: boolean;
  readonly error: string | undefined;
}

/**
 * Opens a session's history at one event (a search hit), however far back: the page
 * that ends right after it (a page always holds its last event), then about a page of
 * newer events so the event is not at the window's edge. It pages older and newer from
 * there and never follows: one Page call per step, whatever the session's length, so a
 * hit 900,000 events back costs the same as one near the end. Both clients show search
 * hits through it; the terminal client also reads far back through it with `maxPages`, so
 * what it holds stays bounded.
 */
export function createHistoryWindow(options: HistoryWindowOptions): HistoryWindow {
  const { client, sessionId, seq } = options;
  const pageSize = options.pageSize ?? 50;
  const conversation = createConversation();
  const maxPages = Math.max(2, options.maxPages ?? Number.POSITIVE_INFINITY);
  /** The events of each load the window holds, oldest first (what a trim refolds). */
  const loads: SessionEvent[][] = [];
  const closed = new AbortController();
  let end = 0;
  /** Events a newer page spans: about the size of the last page loaded. */
  let span = 64;
  const fields = {
    opened: false,
    hasMore: false,
    hasNewer: false,
    loading: true,
    error: undefined as string | undefined,
  };
  const build = (): HistoryWindowState => ({
    sessionId,
    seq,
    snapshot: conversation.snapshot,
    ...fields,
  });
  let state = build();
  const notifier = createChangeNotifier(() => {
    state = build();
    options.onChange?.(state);
  });
  const page = async (
    beforeSeq: number | undefined,
  ): Promise<{ events: SessionEvent[]; hasMore: boolean }> => {
    const response = await client.page(
      { sessionId, beforeSeq, maxMessages: pageSize },
      { signal: closed.signal },
    );
    return { events: pageEvents(sessionId, response), hasMore: response.hasMore };
  };

  async function step(run: () => Promise<void>): Promise<void> {
    if (closed.signal.aborted) return;
    fields.loading = true;
    notifier.schedule();
    try {
      await run();
      fields.error = undefined;
    } catch (failure) {
      if (!closed.signal.aborted)
        fields.error = `loading history failed: ${describeError(failure)}`;
    } finally {
      fields.loading = false;
      state = build();
      notifier.schedule();
      notifier.flush();
    }
  }

  /** The events from `from` on, about `span` of them, contiguous with the window. */
  async function newerFrom(from: number): Promise<SessionEvent[]> {
    for (let reach = span; ; reach = Math.max(1, Math.floor(reach / 2))) {
      const before = Math.min(end, from + reach);
      const loaded = await page(before);
      const first = loaded.events[0]?.seq ?? before;
      if (first <= from || reach === 1) return loaded.events.filter((e) => e.seq >= from);
    }
  }

  const opened = step(async () => {
    const tail = await page(undefined);
    end = (tail.events.at(-1)?.seq ?? -1) + 1;
    if (seq >= end) throw new Error(`event ${seq} is past the session's end (${end} events)`);
    const around = await page(seq + 1);
    span = Math.max(16, around.events.length);
    conversation.apply({ kind: 'replace', events: around.events });
    loads.push(around.events);
    fields.hasMore = around.hasMore;
    const newer = seq + 1 < end ? await newerFrom(seq + 1) : [];
    if (newer.length > 0) {
      conversation.apply({ kind: 'append', events: newer });
      loads.push(newer);
    }
    fields.hasNewer = conversation.snapshot.endSeq < end;
    fields.opened = true;
  });

  return {
    get state() {
      return state;
    },
    opened,
    async loadOlder() {
      if (!fields.opened || !fields.hasMore || fields.loading) return;
      await step(async () => {
        const older = await page(conversation.snapshot.firstSeq);
        fields.hasMore = older.hasMore;
        if (older.events.length === 0) return;
        loads.unshift(older.events);
        if (loads.length <= maxPages) {
          conversation.apply({ kind: 'prepend', events: older.events });
          return;
        }
        loads.splice(maxPages);
        conversation.apply({ kind: 'replace', events: loads.flat() });
        fields.hasNewer = conversation.snapshot.endSeq < end;
      });
    },
    async loadNewer() {
      if (!fields.opened || !fields.hasNewer || fields.loading) return;
      await step(async () => {
        const newer = await newerFrom(conversation.snapshot.endSeq);
        if (newer.length > 0) loads.push(newer);
        if (loads.length <= maxPages) conversation.apply({ kind: 'append', events: newer });
        else {
          loads.splice(0, loads.length - maxPages);
          conversation.apply({ kind: 'replace', events: loads.flat() });
          fields.hasMore = true;
        }
        fields.hasNewer = conversation.snapshot.endSeq < end;
      });
    },
    close() {
      closed.abort();
      notifier.cancel();
    },
  };
}

/**
 * A history window in the shape of a live one, so a client draws a search hit's stretch of
 * history with the code that draws the live window: `connection` stays `live` (the
 * stretch was read whole), `retry` does nothing, `loadOlder` pages older.
 */
export function historyAsSessionWindow(window: HistoryWindow): SessionWindow {
  let from: HistoryWindow['state'] | undefined;
  let mapped: SessionWindowState | undefined;
  return {
    get state(): SessionWindowState {
      const s = window.state;
      if (s === from && mapped !== undefined) return mapped;
      from = s;
      mapped = {
        sessionId: s.sessionId,
        snapshot: s.snapshot,
        opened: s.opened,
        hasMore: s.hasMore,
        loadingOlder: s.loading,
        baseline: undefined,
        endBaseline: undefined,
        baselinePending: false,
        connection: { kind: 'live' },
        error: s.error,
        resyncs: 0,
      };
      return mapped;
    },
    loadOlder: () => window.loadOlder(),
    retry: () => {},
    close: () => window.close(),
  };
}
