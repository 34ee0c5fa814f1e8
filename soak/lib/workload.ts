import { setTimeout as sleep } from 'node:timers/promises';
import { PromptMode } from '@dsh/gen/service';
import { textContent, type SessionClient } from './clients.js';
import { directive } from './fake-model.js';

/** A stream of appends into one session, made of queued prompts the fake model answers at length. */
export interface Workload {
  /** Cancels what is left and waits until the session is idle; resolves with its last seq. */
  stop(): Promise<number>;
}

/**
 * Queues enough streaming prompts to keep `sessionId` appending for about `ms`
 * (`chunks` text chunks `delayMs` apart per turn, each `size` characters).
 */
export async function startWorkload(
  client: SessionClient,
  sessionId: string,
  options: { ms: number; chunks: number; delayMs: number; size?: number },
): Promise<Workload> {
  const turnMs = Math.max(1, options.chunks * options.delayMs);
  const turns = Math.max(1, Math.ceil(options.ms / turnMs));
  const text = directive({
    stream: { chunks: options.chunks, delayMs: options.delayMs, size: options.size ?? 40 },
  });
  const first = await eventCount(client, sessionId);
  for (let i = 0; i < turns; i++) {
    await client.prompt({ sessionId, content: textContent(text), mode: PromptMode.QUEUE });
  }
  const until = Date.now() + options.ms;
  return {
    async stop() {
      const left = until - Date.now();
      if (left > 0) await sleep(left);
      await client.cancel({ sessionId });
      const last = await idleLastSeq(client, sessionId);
      // A workload that appended (almost) nothing would make every figure meaningless.
      if (last + 1 - first < Math.min(options.chunks / 2, 20)) {
        throw new Error(
          `the workload appended ${last + 1 - first} events to ${sessionId}: the fake model did not stream`,
        );
      }
      return last;
    },
  };
}

/** Waits until the session runs no turn, then returns its last seq (-1 when empty). */
export async function idleLastSeq(client: SessionClient, sessionId: string): Promise<number> {
  for (let i = 0; i < 300; i++) {
    const listed = await client.listSessions({});
    const summary = listed.sessions.find((s) => s.id === sessionId);
    if (summary && !summary.running) return summary.eventCount - 1;
    await sleep(100);
  }
  throw new Error(`session ${sessionId} is still running after 30 s`);
}

/** Runs one turn of `chunks` streamed text chunks to its end; resolves with the last seq. */
export async function streamTurn(
  client: SessionClient,
  sessionId: string,
  chunks: number,
  size = 40,
): Promise<number> {
  const text = directive({ stream: { chunks, delayMs: 0, size } });
  const first = await eventCount(client, sessionId);
  await client.prompt({ sessionId, content: textContent(text), mode: PromptMode.QUEUE });
  // The turn is over at its own turn/end; ListSessions may not show it running yet.
  const last = await turnEndSeq(client, sessionId, first);
  if (last + 1 - first < chunks / 2) {
    throw new Error(`a ${chunks}-chunk turn appended ${last + 1 - first} events to ${sessionId}`);
  }
  return last;
}

/** Follows `sessionId` from `fromSeq` until the first turn/end; resolves with its seq. */
async function turnEndSeq(
  client: SessionClient,
  sessionId: string,
  fromSeq: number,
): Promise<number> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), 30_000);
  try {
    const stream = client.follow(
      { sessionId, ...(fromSeq > 0 && { afterSeq: fromSeq - 1 }) },
      { signal: abort.signal },
    );
    for await (const { frame } of stream) {
      const event = frame.case === 'event' ? frame.value.event : undefined;
      if (event?.payload.case === 'turnEnd') return Number(event.seq);
    }
  } catch (err) {
    if (abort.signal.aborted) throw new Error(`session ${sessionId}: no turn/end within 30 s`);
    throw err;
  } finally {
    clearTimeout(timer);
    abort.abort();
  }
  throw new Error(`session ${sessionId}: the follow ended before a turn/end`);
}

async function eventCount(client: SessionClient, sessionId: string): Promise<number> {
  const listed = await client.listSessions({});
  return listed.sessions.find((s) => s.id === sessionId)?.eventCount ?? 0;
}
