import type { SessionEvent } from '@dsh/gen/events';
import { JournalError, type EventPayload, type Journal } from '@dsh/journal';
import { defaultOutageMs, retryThroughOutage } from './outage-retry.js';

/**
 * Serialises one session's appends: events reach the journal in the order they are
 * recorded. Stream chunks are batched per tick into one append; `record` flushes them
 * first, so a chunk never lands after the message that follows it. An append the
 * journal refuses as `too_large` is retried once through `fit`. An append the store
 * cannot take because it is unreachable (`unavailable`: the database is down) is retried
 * with backoff for `outageMs`, the events recorded behind it waiting in memory; only
 * then does it fail. A batched append that fails (disk full) is never an unhandled
 * rejection: `flush` throws its error.
 */
export interface EventRecorder {
  record(payloads: readonly EventPayload[]): Promise<SessionEvent[]>;
  /** Queues a chunk-like event for the next batched append. */
  recordSoon(payload: EventPayload): void;
  /**
   * Resolves once every event recorded so far is durable; rejects with the error of a
   * batched append that failed since the last flush.
   */
  flush(): Promise<void>;
}

/**
 * Creates the recorder; `onRecorded` sees every durable event in seq order, and `fit`
 * makes events over the journal's line limit small enough (see `fitPayloads`).
 */
export function createEventRecorder(
  journal: Journal,
  onRecorded: (events: readonly SessionEvent[]) => void,
  fit?: (payloads: readonly EventPayload[]) => Promise<EventPayload[]>,
  outageMs = defaultOutageMs,
): EventRecorder {
  let tail: Promise<unknown> = Promise.resolve();
  let batch: EventPayload[] = [];
  let scheduled = false;
  let lost: { error: unknown } | undefined;

  const append = (payloads: readonly EventPayload[]): Promise<SessionEvent[]> => {
    const run = tail.then(async () => {
      const events = await retryThroughOutage(
        (retried) => appendOnce(journal, payloads, retried, fit),
        outageMs,
      );
      onRecorded(events);
      return events;
    });
    tail = run.catch(() => undefined);
    return run;
  };
  /** Appends the queued chunks; never rejects (a failure waits in `lost` for `flush`). */
  const flushBatch = (): Promise<void> => {
    if (batch.length === 0) return Promise.resolve();
    const payloads = batch;
    batch = [];
    return append(payloads).then(
      () => undefined,
      (error: unknown) => void (lost ??= { error }),
    );
  };

  return {
    record(payloads) {
      void flushBatch();
      return append(payloads);
    },
    recordSoon(payload) {
      batch.push(payload);
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        void flushBatch();
      });
    },
    async flush() {
      await flushBatch();
      await tail;
      const failed = lost;
      lost = undefined;
      if (failed !== undefined) throw failed.error;
    },
  };
}

/**
 * One try of an append. A try after an outage that conflicts at the end this journal
 * expected finds the events of the try whose commit reply the outage lost (the owner of
 * a session is its only writer): those are the result.
 */
async function appendOnce(
  journal: Journal,
  payloads: readonly EventPayload[],
  retried: boolean,
  fit?: (payloads: readonly EventPayload[]) => Promise<EventPayload[]>,
): Promise<SessionEvent[]> {
  const at = journal.length;
  try {
    return await journal.append(payloads);
  } catch (error) {
    if (error instanceof JournalError && error.kind === 'too_large' && fit !== undefined) {
      return journal.append(await fit(payloads));
    }
    if (!(retried && error instanceof JournalError && error.kind === 'conflict')) throw error;
    const end = (await journal.head()).length;
    if (end < at + payloads.length) throw error;
    const committed = await journal.read(at, at + payloads.length);
    const same =
      committed.length === payloads.length &&
      committed.every((event, i) => event.payload.case === payloads[i]!.case);
    if (!same) throw error;
    return committed;
  }
}
