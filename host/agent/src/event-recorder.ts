import type { SessionEvent } from '@dsh/gen/events';
import type { EventPayload, Journal } from '@dsh/journal';

/**
 * Serialises one session's appends: events reach the journal in the order they are
 * recorded. Stream chunks are batched per tick into one append; `record` flushes them
 * first, so a chunk never lands after the message that follows it.
 */
export interface EventRecorder {
  record(payloads: readonly EventPayload[]): Promise<SessionEvent[]>;
  /** Queues a chunk-like event for the next batched append. */
  recordSoon(payload: EventPayload): void;
  /** Resolves once every event recorded so far is durable. */
  flush(): Promise<void>;
}

/** Creates the recorder; `onRecorded` sees every durable event in seq order. */
export function createEventRecorder(
  journal: Journal,
  onRecorded: (events: readonly SessionEvent[]) => void,
): EventRecorder {
  let tail: Promise<unknown> = Promise.resolve();
  let batch: EventPayload[] = [];
  let batchFlush: Promise<void> | undefined;

  const append = (payloads: readonly EventPayload[]): Promise<SessionEvent[]> => {
    const run = tail.then(async () => {
      const events = await journal.append(payloads);
      onRecorded(events);
      return events;
    });
    tail = run.catch(() => undefined);
    return run;
  };
  const flushBatch = (): Promise<void> => {
    if (batch.length === 0) return batchFlush ?? Promise.resolve();
    const payloads = batch;
    batch = [];
    batchFlush = undefined;
    return append(payloads).then(() => undefined);
  };

  return {
    record(payloads) {
      void flushBatch().catch(() => undefined);
      return append(payloads);
    },
    recordSoon(payload) {
      batch.push(payload);
      batchFlush ??= new Promise<void>((resolve, reject) => {
        setImmediate(() => flushBatch().then(resolve, reject));
      });
    },
    async flush() {
      await flushBatch();
      await tail;
    },
  };
}
