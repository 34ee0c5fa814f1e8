import type { Client } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { SessionService } from '@dsh/gen/service';

interface Waiter {
  match: (event: SessionEvent) => boolean;
  resolve: (event: SessionEvent) => void;
}

/** A live `Follow` stream of one session that keeps every event and lets a test wait for one. */
export interface SessionFollower {
  readonly events: readonly SessionEvent[];
  /** Resolves with the first event (already received or coming) that matches; rejects after `ms`. */
  waitFor(
    what: string,
    match: (event: SessionEvent) => boolean,
    ms?: number,
  ): Promise<SessionEvent>;
  /** Ends the stream; resolves once the reading loop stopped (with its error, if any). */
  stop(): Promise<unknown>;
}

/** Follows `sessionId` from seq 0 and calls `onEvent` for each event in order. */
export function followSession(
  client: Client<typeof SessionService>,
  sessionId: string,
  onEvent: (event: SessionEvent) => void,
): SessionFollower {
  const events: SessionEvent[] = [];
  let waiters: Waiter[] = [];
  const abort = new AbortController();
  const loop = (async (): Promise<unknown> => {
    try {
      for await (const frame of client.follow({ sessionId }, { signal: abort.signal })) {
        if (frame.frame.case !== 'event' || !frame.frame.value.event) continue;
        const event = frame.frame.value.event;
        events.push(event);
        onEvent(event);
        const ready = waiters.filter((w) => w.match(event));
        waiters = waiters.filter((w) => !w.match(event));
        for (const waiter of ready) waiter.resolve(event);
      }
      return undefined;
    } catch (error) {
      return abort.signal.aborted ? undefined : error;
    }
  })();

  return {
    events,
    waitFor(what, match, ms = 30_000) {
      const seen = events.find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          const last = events.at(-1)?.payload.case ?? 'none';
          reject(new Error(`no ${what} within ${ms} ms (${events.length} events, last ${last})`));
        }, ms);
        waiters.push({
          match,
          resolve: (event) => {
            clearTimeout(timer);
            resolve(event);
          },
        });
      });
    },
    stop() {
      abort.abort();
      return loop;
    },
  };
}
