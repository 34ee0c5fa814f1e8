import { Code, ConnectError, type Client } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { Baseline, PageResponse, SessionService } from '@dsh/gen/service';
import { createConversation, type ConversationSnapshot } from '@dsh/card-models';
import { defaultBackoff, type BackoffOptions } from './backoff.js';
import { createChangeNotifier } from './change-notifier.js';
import { describeError, type ConnectionState } from './connection-state.js';
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

/** Events merged in one fold commit at most; a longer burst commits in slices. */
const maxBatch = 2_000;

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
  let opened = false;
  let hasMore = false;
  let loadingOlder = false;
  let baseline: Baseline | undefined;
  let connection: ConnectionState = { kind: 'connecting' };
  let error: string | undefined;
  let resyncs = 0;
  let state = build();

  function build(): SessionWindowState {
    return {
      sessionId,
      snapshot: conversation.snapshot,
      opened,
      hasMore,
      loadingOlder,
      baseline,
      connection,
      error,
      resyncs,
    };
  }

  const notifier = createChangeNotifier(() => {
    applyPending();
    state = build();
    options.onChange?.(state);
  });

  /** Folds buffered live events; a gap means the stream skipped events: resync. */
  function applyPending(): void {
    while (pending.length > 0) {
      const batch = pending.length > maxBatch ? pending.slice(0, maxBatch) : pending;
      pending = pending.length > maxBatch ? pending.slice(maxBatch) : [];
      const result = conversation.tryApply({ kind: 'append', events: batch });
      if (!result.ok) {
        pending = [];
        error = result.error.message;
        loop.retry();
        return;
      }
    }
  }

  function eventsOf(response: PageResponse): SessionEvent[] {
    const events: SessionEvent[] = [];
    for (const entry of response.events) {
      if (entry.event === undefined) {
        throw new ConnectError(
          `a page of ${sessionId} holds an entry without an event`,
          Code.DataLoss,
        );
      }
      events.push(entry.event);
    }
    return events;
  }

  /** Loads the tail page and joins it to the window (or replaces the window with it). */
  async function loadTail(context: AttemptContext): Promise<void> {
    const response = await client.page(
      { sessionId, maxMessages: pageSize },
      { signal: context.signal },
    );
    context.touch();
    const events = eventsOf(response);
    applyPending();
    const { firstSeq, endSeq } = conversation.snapshot;
    const tailFirst = events[0]?.seq ?? 0;
    const tailEnd = (events.at(-1)?.seq ?? -1) + 1;
    const joins = opened && endSeq > firstSeq && events.length > 0 && tailFirst <= endSeq;
    const change = joins && tailEnd >= endSeq ? 'append' : 'replace';
    const result = conversation.tryApply({ kind: change, events });
    if (!result.ok) throw new ConnectError(result.error.message, Code.DataLoss);
    if (change === 'replace') hasMore = response.hasMore;
    if (opened) resyncs += 1;
    opened = true;
    baseline = response.baseline;
    error = undefined;
    notifier.schedule();
  }

  /** Follows from the window's end until the stream fails. */
  async function followLive(context: AttemptContext): Promise<void> {
    const { endSeq } = conversation.snapshot;
    const afterSeq = endSeq > 0 ? endSeq - 1 : undefined;
    const stream = client.follow({ sessionId, afterSeq }, { signal: context.signal, timeoutMs: 0 });
    for await (const response of stream) {
      context.touch();
      const frame = response.frame;
      switch (frame.case) {
        case 'opening':
          if (frame.value.firstSeq !== endSeq) {
            throw new ConnectError(
              `follow opened at seq ${frame.value.firstSeq}, the window ends at ${endSeq}`,
              Code.Aborted,
            );
          }
          context.live();
          break;
        case 'event':
          if (frame.value.event !== undefined) {
            pending.push(frame.value.event);
            if (pending.length >= maxBatch) notifier.flush();
            notifier.schedule();
          }
          break;
        case 'heartbeat':
        case undefined:
          break;
        default: {
          const unhandled: never = frame;
          throw new Error(`unhandled follow frame ${JSON.stringify(unhandled)}`);
        }
      }
    }
  }

  const loop = startReconnectLoop({
    backoff: options.backoff ?? defaultBackoff,
    idleTimeoutMs: options.idleTimeoutMs ?? 20_000,
    attempt: async (context) => {
      await loadTail(context);
      await followLive(context);
    },
    onConnection: (next) => {
      if (closed.signal.aborted) return;
      connection = next;
      notifier.schedule();
    },
  });

  return {
    get state() {
      return state;
    },
    async loadOlder() {
      if (closed.signal.aborted || !opened || !hasMore || loadingOlder) return;
      applyPending();
      const before = conversation.snapshot.firstSeq;
      loadingOlder = true;
      notifier.schedule();
      try {
        const response = await client.page(
          { sessionId, beforeSeq: before, maxMessages: pageSize },
          { signal: closed.signal },
        );
        applyPending();
        // A resync replaced the window meanwhile: this page no longer joins it.
        if (conversation.snapshot.firstSeq !== before) return;
        const result = conversation.tryApply({ kind: 'prepend', events: eventsOf(response) });
        if (result.ok) {
          hasMore = response.hasMore;
          error = undefined;
        } else {
          error = result.error.message;
        }
      } catch (failure) {
        if (!closed.signal.aborted)
          error = `loading older events failed: ${describeError(failure)}`;
      } finally {
        loadingOlder = false;
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
      loop.close();
      notifier.cancel();
      applyPending();
      connection = { kind: 'offline', error: 'closed' };
      state = build();
    },
  };
}
