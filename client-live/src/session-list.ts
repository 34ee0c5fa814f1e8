import type { Client } from '@connectrpc/connect';
import type { SessionService, SessionSummary } from '@dsh/gen/service';
import type { BackoffOptions } from '@dsh/backoff';
import { defaultBackoff } from './backoff.js';
import { createChangeNotifier } from './change-notifier.js';
import type { ConnectionState } from './connection-state.js';
import { startReconnectLoop } from './reconnect-loop.js';
import { sessionTree, type SessionRow } from './session-tree.js';

/** Options of `createSessionList`. */
export interface SessionListOptions {
  readonly client: Client<typeof SessionService>;
  /** Called after changes, coalesced: at most once per task. */
  readonly onChange?: (state: SessionListState) => void;
  readonly backoff?: BackoffOptions;
  /** Silence after which the stream counts as dead; 20 s by default. */
  readonly idleTimeoutMs?: number;
  /**
   * Also list archived sessions (their summaries say `archived`), so a client can show
   * or hide them without a new stream; hidden by the host by default.
   */
  readonly includeArchived?: boolean;
}

/** The session list as a client shows it. Immutable; each change makes a new one. */
export interface SessionListState {
  /** Sessions by id; a summary object is kept until that session changes. */
  readonly sessions: ReadonlyMap<string, SessionSummary>;
  /** The lineage tree, flattened in display order. */
  readonly rows: readonly SessionRow[];
  /** True once the first snapshot arrived. */
  readonly loaded: boolean;
  readonly connection: ConnectionState;
}

/** The live session list. */
export interface SessionList {
  readonly state: SessionListState;
  /** Reconnects now (after `offline`, or to skip a backoff wait). */
  retry(): void;
  close(): void;
}

/**
 * Watches the session list: the opening snapshot replaces everything known (so a
 * reconnect converges), then `added`, `updated`, `removed` and `status` frames edit it.
 * Reconnects with backoff like `createSessionWindow`.
 */
export function createSessionList(options: SessionListOptions): SessionList {
  let sessions = new Map<string, SessionSummary>();
  let loaded = false;
  let connection: ConnectionState = { kind: 'connecting' };
  let treeOf: ReadonlyMap<string, SessionSummary> | undefined;
  let rows: readonly SessionRow[] = [];
  let closed = false;

  const build = (): SessionListState => {
    if (treeOf !== sessions) {
      rows = sessionTree(sessions.values());
      treeOf = sessions;
    }
    return { sessions, rows, loaded, connection };
  };
  let state = build();
  const notifier = createChangeNotifier(() => {
    state = build();
    options.onChange?.(state);
  });
  const edit = (change: (next: Map<string, SessionSummary>) => void): void => {
    const next = new Map(sessions);
    change(next);
    sessions = next;
    notifier.schedule();
  };

  const loop = startReconnectLoop({
    backoff: options.backoff ?? defaultBackoff,
    idleTimeoutMs: options.idleTimeoutMs ?? 20_000,
    onConnection: (next) => {
      if (closed) return;
      connection = next;
      notifier.schedule();
    },
    attempt: async (context) => {
      const stream = options.client.watchSessions(
        { includeArchived: options.includeArchived ?? false },
        { signal: context.signal, timeoutMs: 0 },
      );
      for await (const response of stream) {
        context.touch();
        const frame = response.frame;
        switch (frame.case) {
          case 'snapshot': {
            const previous = sessions;
            edit((next) => {
              next.clear();
              for (const summary of frame.value.sessions) {
                const known = previous.get(summary.id);
                next.set(summary.id, known !== undefined && same(known, summary) ? known : summary);
              }
            });
            loaded = true;
            context.live();
            break;
          }
          case 'added':
          case 'updated':
            edit((next) => next.set(frame.value.id, frame.value));
            break;
          case 'removed':
            edit((next) => next.delete(frame.value.id));
            break;
          case 'status': {
            const known = sessions.get(frame.value.id);
            if (known !== undefined && known.running !== frame.value.running) {
              const running = frame.value.running;
              edit((next) => next.set(known.id, { ...known, running }));
            }
            break;
          }
          case 'heartbeat':
          case undefined:
            break;
          default: {
            const unhandled: never = frame;
            throw new Error(`unhandled watch frame ${JSON.stringify(unhandled)}`);
          }
        }
      }
    },
  });

  return {
    get state() {
      return state;
    },
    retry() {
      loop.retry();
    },
    close() {
      if (closed) return;
      closed = true;
      loop.close();
      notifier.cancel();
      connection = { kind: 'offline', error: 'closed' };
      state = build();
    },
  };
}

function same(a: SessionSummary, b: SessionSummary): boolean {
  return (
    a.running === b.running &&
    a.eventCount === b.eventCount &&
    a.title === b.title &&
    a.pending === b.pending &&
    a.archived === b.archived &&
    a.model === b.model &&
    a.tokenUsage?.inputTokens === b.tokenUsage?.inputTokens &&
    a.tokenUsage?.outputTokens === b.tokenUsage?.outputTokens &&
    a.parentId === b.parentId &&
    a.error === b.error &&
    a.updatedAt?.seconds === b.updatedAt?.seconds &&
    a.updatedAt?.nanos === b.updatedAt?.nanos
  );
}
