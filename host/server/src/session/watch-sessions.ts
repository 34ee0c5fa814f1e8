import { create, type MessageInitShape } from '@bufbuild/protobuf';
import { timestampNow } from '@bufbuild/protobuf/wkt';
import {
  SessionsSnapshotSchema,
  WatchSessionsResponseSchema,
  type SessionSummary,
  type WatchSessionsResponse,
} from '@dsh/gen/service';
import type { JournalStore, JournalSummary, StoreChange } from '@dsh/journal';
import { abortable, canceled, createWaker } from './abortable.js';
import type { AgentControl } from './agent-control.js';
import { encodedSummaries, withEncoded } from './binary-wire.js';
import { newestFirst, sessionSummary } from './session-summary.js';
import type { StreamCounter } from './stream-counter.js';

/**
 * The frames of one session-list stream: a snapshot first, then `added`, `updated`,
 * `removed` and `status` frames as sessions change, and a heartbeat after `heartbeatMs`
 * of idleness. Without `includeArchived`, archived sessions are left out: archiving one
 * sends `removed`, unarchiving it `added`.
 * Changes are observed before the snapshot is read; updates of one session coalesce
 * while the reader is busy, so a slow reader costs at most one pending entry per
 * session. Observers and pending entries are released however the stream ends, and
 * at once when `signal` aborts, even while the generator is suspended on a blocked write.
 */
export async function* watchSessions(
  store: JournalStore,
  agent: AgentControl,
  options: {
    readonly heartbeatMs: number;
    readonly includeArchived?: boolean;
    /** The stream travels binary: the snapshot's summaries go out as shared encodings. */
    readonly binary?: boolean;
  },
  signal: AbortSignal,
  counter?: StreamCounter,
): AsyncGenerator<WatchSessionsResponse, void, undefined> {
  const waker = createWaker(signal);
  const changed = new Map<string, StoreChange['kind']>();
  const shows = (s: JournalSummary): boolean => options.includeArchived === true || !s.archived;
  /** The sessions the client was told of and not told removed. */
  const visible = new Set<string>();
  const statuses = new Map<string, boolean>();
  const stop = new AbortController();
  const changes = store.watch({ signal: stop.signal })[Symbol.asyncIterator]();
  const stopStatus = agent.onStatus((status) => {
    statuses.set(status.sessionId, status.running);
    waker.wake();
  });
  counter?.opened('watch');
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    stop.abort();
    stopStatus();
    changed.clear();
    statuses.clear();
    counter?.closed('watch');
  };
  signal.addEventListener('abort', release, { once: true });
  try {
    await abortable(changes.next(), signal);
    void collect(changes, (change) => {
      if (released) return;
      changed.set(change.sessionId, change.kind);
      waker.wake();
    });
    const listed = (await abortable(store.list(), signal)).filter(shows).sort(newestFirst);
    for (const s of listed) visible.add(s.header.sessionId);
    const sessions = listed.map((s) => sessionSummary(s, agent.isRunning(s.header.sessionId)));
    const snapshot =
      options.binary === true
        ? withEncoded(create(SessionsSnapshotSchema), encodedSummaries.field(1, sessions))
        : create(SessionsSnapshotSchema, { sessions });
    yield frame({ case: 'snapshot', value: snapshot });
    for (;;) {
      if (signal.aborted) throw canceled(signal);
      const status = first(statuses);
      if (status !== undefined) {
        statuses.delete(status[0]);
        yield frame({ case: 'status', value: { id: status[0], running: status[1] } });
        continue;
      }
      const change = first(changed);
      if (change !== undefined) {
        const [id, kind] = change;
        changed.delete(id);
        const summary =
          kind === 'removed' ? undefined : await abortable(summarize(store, agent, id), signal);
        if (summary === undefined || !shows(summary.source)) {
          if (visible.delete(id)) yield frame({ case: 'removed', value: { id } });
        } else {
          const wasVisible = visible.has(id);
          visible.add(id);
          yield frame({ case: wasVisible ? 'updated' : 'added', value: summary.wire });
        }
        continue;
      }
      if (!(await waker.wait(options.heartbeatMs))) {
        yield frame({ case: 'heartbeat', value: { time: timestampNow() } });
      }
    }
  } finally {
    signal.removeEventListener('abort', release);
    release();
  }
}

/** Hands every change of `changes` to `take` until the iterable ends. */
async function collect(
  changes: AsyncIterator<readonly StoreChange[]>,
  take: (change: StoreChange) => void,
): Promise<void> {
  try {
    for (;;) {
      const batch = await changes.next();
      if (batch.done === true) return;
      for (const change of batch.value) take(change);
    }
  } catch (error) {
    console.error('dsh: the session watch of the journal store failed', error);
  }
}

/** A session's summary as ListSessions shows it (an unreadable one with its error). */
async function summarize(
  store: JournalStore,
  agent: AgentControl,
  sessionId: string,
): Promise<{ source: JournalSummary; wire: SessionSummary } | undefined> {
  const source = await store.summary(sessionId).catch(() => undefined);
  if (source === undefined) return undefined;
  return { source, wire: sessionSummary(source, agent.isRunning(sessionId)) };
}

function first<K, V>(map: Map<K, V>): [K, V] | undefined {
  for (const entry of map) return entry;
  return undefined;
}

function frame(
  value: MessageInitShape<typeof WatchSessionsResponseSchema>['frame'],
): WatchSessionsResponse {
  return create(WatchSessionsResponseSchema, { frame: value });
}
