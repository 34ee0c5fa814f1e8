import { Code, ConnectError, type Client } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { PageResponse, SessionService } from '@dsh/gen/service';
import type { AttemptContext } from './reconnect-loop.js';

/**
 * Events per follow frame the clients ask for: catching up after a reconnect, or while
 * events come faster than the client reads, takes a few frames instead of one per event.
 */
export const followBatchEvents = 500;

/**
 * Follows `sessionId` from `endSeq` (the window's end) until the stream ends or fails,
 * handing each event to `onEvent`. Throws `aborted` when the stream opens elsewhere than
 * `endSeq`, so the window resyncs instead of showing a hole.
 */
export async function followSession(
  client: Client<typeof SessionService>,
  sessionId: string,
  endSeq: number,
  context: AttemptContext,
  onEvent: (event: SessionEvent) => void,
): Promise<void> {
  const afterSeq = endSeq > 0 ? endSeq - 1 : undefined;
  const stream = client.follow(
    { sessionId, afterSeq, maxBatchEvents: followBatchEvents },
    { signal: context.signal, timeoutMs: 0 },
  );
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
        if (frame.value.event !== undefined) onEvent(frame.value.event);
        break;
      case 'events':
        for (const entry of frame.value.events) if (entry.event !== undefined) onEvent(entry.event);
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

/** The events of a page; `data_loss` for an entry without one. */
export function pageEvents(sessionId: string, response: PageResponse): SessionEvent[] {
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
