import { Code, ConnectError, type Client } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { Baseline, SessionService } from '@dsh/gen/service';
import { createConversation, type Conversation, type ConversationSnapshot } from '@dsh/card-models';
import type { BackoffOptions } from '@dsh/backoff';
import { createPause, defaultBackoff } from './backoff.js';
import { createChangeNotifier } from './change-notifier.js';
import { describeError, type ConnectionState } from './connection-state.js';
import { followSession, pageEvents } from './follow-session.js';
import { startReconnectLoop, type AttemptContext } from './reconnect-loop.js';

/** Options of `createSessionWindow`. */
export interface SessionWindowOptions {
  readonly client: Client<typeof SessionService>;
  readonly sessionId: string;
  /** Messages per page (the tail page and each older page); 50 by default. */
  readonly pageSize?: number;
  /** Called after changes, coalesced: at most once per task. */
  readonly onChange?: (state: SessionWindowState) => void;
  readonly backoff?: BackoffOptions;
  /** Silence after which the stream counts as dead; 20 s by default (the host beats every 5 s). */
  readonly idleTimeoutMs?: number;
}

/** Everything a client shows about one open session. Immutable; each change makes a new one. */
export interface SessionWindowState {
  readonly sessionId: string;
  readonly snapshot: ConversationSnapshot;
  /** True once a tail page has been loaded. */
  readonly opened: boolean;
  /** True while events older than the window exist. */
  readonly hasMore: boolean;
  readonly loadingOlder: boolean;
  /** The projection baseline of the last tail page. */
  readonly baseline: Baseline | undefined;
  /** The last tail page's baseline after its last event (totals including the page). */
  readonly endBaseline: Baseline | undefined;
  /**
   * True while the host is still indexing the session and has not sent the baselines
   * (`PageResponse.baseline_pending`): session-wide totals are unknown, not zero. The
   * window asks again until they come.
   */
  readonly baselinePending: boolean;
  readonly connection: ConnectionState;
  /** Why the last older page or window change failed; cleared by the next success. */
  readonly error: string | undefined;
  /** Tail pages loaded after the first one (each reconnect resyncs once). */
  readonly resyncs: number;
}

/** One session's live event window. */
export interface SessionWindow {
  readonly state: SessionWindowState;
  /**
   * Prepends the page before the window; no-op while one loads or when none is left.
   * `state` is up to date when it resolves.
   */
  loadOlder(): Promise<void>;
  /** Reconnects now (after `offline`, or to skip a backoff wait). */
  retry(): void;
  /** Stops following; the window keeps its last state. */
  close(): void;
}

/** First wait before asking again for baselines the host is still indexing; doubles to 4 s. */
const baselineRetryMs = 250;

/** Events merged in one fold commit at most; a longer burst commits in slices. */
const maxBatch = 2_000;

/** The fields of `SessionWindowState` a window changes as it goes. */
type WindowFields = { -readonly [K in keyof SessionWindowState]: SessionWindowState[K] };

/** The state of a window that is connecting and has loaded nothing yet. */
function initialFields(sessionId: string, snapshot: ConversationSnapshot): WindowFields {
  return {
    sessionId,
    snapshot,
    opened: false,
    hasMore: false,
    loadingOlder: false,
    baseline: undefined,
    endBaseline: undefined,
    baselinePending: false,
    connection: { kind: 'connecting' },
    error: undefined,
    resyncs: 0,
  };
}

/**
 * How a fresh tail page changes the window: `append` when it joins the window's end (the
 * window keeps its older pages), `replace` when it does not (a first open, a long outage,
 * a journal that shrank).
 */
function tailChange(
  snapshot: ConversationSnapshot,
  opened: boolean,
  events: readonly SessionEvent[],
): 'append' | 'replace' {
  const { firstSeq, endSeq } = snapshot;
  const tailFirst = events[0]?.seq ?? 0;
  const tailEnd = (events.at(-1)?.seq ?? -1) + 1;
  const joins = opened && endSeq > firstSeq && events.length > 0 && tailFirst <= endSeq;
  return joins && tailEnd >= endSeq ? 'append' : 'replace';
}

/**
 * Folds `pending` into the conversation in slices of `maxBatch`; resolves with the error
 * of a slice that does not join (the stream skipped events), leaving the rest unfolded.
 */
function foldPending(conversation: Conversation, pending: SessionEvent[]): string | undefined {
  for (let from = 0; from < pending.length; from += maxBatch) {
    const events = pending.slice(from, from + maxBatch);
    const result = conversation.tryApply({ kind: 'append', events });
    if (!result.ok) return result.error.message;
  }
  return undefined;
}

/**
 * Opens a session: loads the tail page, then follows from its last seq (from seq 0 when
 * the session is empty), folding everything into one `createConversation()` window. On
 * any failure it reconnects with backoff and resyncs: a fresh tail page that joins the
 * window keeps it (older pages stay loaded) and only adds what is new; one that does
 * not (a long outage, a journal that shrank) replaces it. Seqs de-duplicate, so a host
 * restart neither repeats nor loses an event.
 */
export function createSessionWindow(options: SessionWindowOptions): SessionWindow {
  const { client, sessionId } = options;
  const pageSize = options.pageSize ?? 50;
  const conversation = createConversation();
  const closed = new AbortController();
  let pending: SessionEvent[] = [];
  const fields = initialFields(sessionId, conversation.snapshot);
  const build = (): SessionWindowState => ({ ...fields, snapshot: conversation.snapshot });
  let state = build();

  const notifier = createChangeNotifier(() => {
    applyPending();
    state = build();
    options.onChange?.(state);
  });

  /** Folds buffered live events; a gap means the stream skipped events: resync. */
  function applyPending(): void {
    if (pending.length === 0) return;
    const failed = foldPending(conversation, pending);
    pending = [];
    if (failed === undefined) return;
    fields.error = failed;
    loop.retry();
  }

  /** Loads the tail page and joins it to the window (or replaces the window with it). */
  async function loadTail(context: AttemptContext): Promise<void> {
    const response = await client.page(
      { sessionId, maxMessages: pageSize },
      { signal: context.signal },
    );
    context.touch();
    const events = pageEvents(sessionId, response);
    applyPending();
    const change = tailChange(conversation.snapshot, fields.opened, events);
    const result = conversation.tryApply({ kind: change, events });
    if (!result.ok) throw new ConnectError(result.error.message, Code.DataLoss);
    if (change === 'replace') fields.hasMore = response.hasMore;
    if (fields.opened) fields.resyncs += 1;
    fields.opened = true;
    fields.baseline = response.baseline;
    fields.endBaseline = response.endBaseline;
    fields.baselinePending = response.baselinePending;
    fields.error = undefined;
    notifier.schedule();
    baselineWait?.abort();
    if (response.baselinePending) {
      baselineWait = new AbortController();
      void awaitBaselines(baselineWait.signal);
    }
  }

  let baselineWait: AbortController | undefined;
  /** Ends the wait between baseline asks early: the follow went live, so the host has opened the session. */
  const baselinePause = createPause();

  /**
   * Asks for a one-message tail page, with waits doubling from 250 ms to 4 s (cut short
   * when the follow goes live), until it carries the baselines, and takes them: they
   * cover every event before their seq, and the window holds (or its follow brings)
   * every event from it, so the totals are exact.
   */
  async function awaitBaselines(signal: AbortSignal): Promise<void> {
    for (let wait = baselineRetryMs; !signal.aborted; wait = Math.min(wait * 2, 4_000)) {
      await baselinePause.wait(wait, signal);
      if (signal.aborted || closed.signal.aborted) return;
      const response = await client
        .page({ sessionId, maxMessages: 1 }, { signal: closed.signal })
        .catch(() => undefined);
      if (signal.aborted || response === undefined || response.baselinePending) continue;
      fields.baseline = response.baseline;
      fields.endBaseline = response.endBaseline;
      fields.baselinePending = false;
      notifier.schedule();
      return;
    }
  }

  const loop = startReconnectLoop({
    backoff: options.backoff ?? defaultBackoff,
    idleTimeoutMs: options.idleTimeoutMs ?? 20_000,
    attempt: async (context) => {
      await loadTail(context);
      await followSession(client, sessionId, conversation.snapshot.endSeq, context, (event) => {
        pending.push(event);
        if (pending.length >= maxBatch) notifier.flush();
        notifier.schedule();
      });
    },
    onConnection: (next) => {
      if (closed.signal.aborted) return;
      if (next.kind === 'live' && fields.baselinePending) baselinePause.wake();
      fields.connection = next;
      notifier.schedule();
    },
  });

  return {
    get state() {
      return state;
    },
    async loadOlder() {
      if (closed.signal.aborted || !fields.opened || !fields.hasMore || fields.loadingOlder) return;
      applyPending();
      const before = conversation.snapshot.firstSeq;
      fields.loadingOlder = true;
      notifier.schedule();
      try {
        const response = await client.page(
          { sessionId, beforeSeq: before, maxMessages: pageSize },
          { signal: closed.signal },
        );
        applyPending();
        // A resync replaced the window meanwhile: this page no longer joins it.
        if (conversation.snapshot.firstSeq !== before) return;
        const result = conversation.tryApply({
          kind: 'prepend',
          events: pageEvents(sessionId, response),
        });
        fields.error = result.ok ? undefined : result.error.message;
        if (result.ok) fields.hasMore = response.hasMore;
      } catch (failure) {
        if (!closed.signal.aborted)
          fields.error = `loading older events failed: ${describeError(failure)}`;
      } finally {
        fields.loadingOlder = false;
        notifier.schedule();
        notifier.flush();
      }
    },
    retry() {
      loop.retry();
    },
    close() {
      if (closed.signal.aborted) return;
      closed.abort();
      baselineWait?.abort();
      loop.close();
      notifier.cancel();
      applyPending();
      fields.connection = { kind: 'offline', error: 'closed' };
      state = build();
    },
  };
}
