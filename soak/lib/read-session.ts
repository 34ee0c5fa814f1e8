import { Code, ConnectError } from '@connectrpc/connect';
import type { SessionEvent } from '@dsh/gen/events';
import type { SessionClient } from './clients.js';

/**
 * Every event of a session as one Follow from seq 0 delivers it, up to the last seq
 * its opening frame announced; `timeoutMs` bounds the whole read.
 */
export async function readSession(
  client: SessionClient,
  sessionId: string,
  timeoutMs = 30_000,
): Promise<SessionEvent[]> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), timeoutMs);
  const events: SessionEvent[] = [];
  let last = -1;
  try {
    for await (const frame of client.follow({ sessionId }, { signal: abort.signal })) {
      const { case: kind, value } = frame.frame;
      if (kind === 'opening') last = value.lastSeq ?? -1;
      if (kind === 'event' && value.event) events.push(value.event);
      if ((events.at(-1)?.seq ?? -1) >= last) return events;
    }
    return events;
  } catch (error) {
    if (abort.signal.aborted) throw new Error(`reading ${sessionId} took over ${timeoutMs} ms`);
    throw error;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
}

/** The Connect code of an error as its name (`internal`), or `not a ConnectError`. */
export function errorCode(error: unknown): string {
  if (!(error instanceof ConnectError)) return 'not a ConnectError';
  return (Code[error.code] ?? String(error.code)).replace(/([a-z])([A-Z])/g, '$1_$2').toLowerCase();
}
