import type { ContentBlock } from '@dsh/gen/content';
import type { QueueChange } from './types.js';

/** An input waiting in a session's queue, as a client shows it. */
export interface WaitingInput {
  readonly queueId: string;
  readonly content: readonly ContentBlock[];
  /** True for steering (injected at the running turn's next step). */
  readonly steer: boolean;
  /** Seq of the `input/queued` that first queued it: the queue order. */
  readonly seq: number;
}

/**
 * The inputs waiting in the queue at the window's end: the tail page's baseline queue
 * (the state at `baselineSeq`) with every queue change of the window from that seq on
 * applied (changes before it are already in the baseline). An `input/queued` for an id
 * already waiting replaces its content in place. In queue order.
 */
export function waitingInputs(
  baseline: readonly WaitingInput[] | undefined,
  baselineSeq: number,
  log: readonly QueueChange[],
): WaitingInput[] {
  const waiting = new Map<string, WaitingInput>();
  for (const input of baseline ?? []) {
    const { queueId, content, steer, seq } = input;
    waiting.set(queueId, { queueId, content, steer, seq });
  }
  for (const change of log) {
    if (change.seq < baselineSeq) continue;
    if (change.kind === 'unqueued') {
      waiting.delete(change.queueId);
      continue;
    }
    const known = waiting.get(change.queueId);
    const { queueId, content, steer, seq } = change;
    waiting.set(
      queueId,
      known === undefined ? { queueId, content, steer, seq } : { ...known, content },
    );
  }
  return [...waiting.values()].sort((a, b) => a.seq - b.seq);
}
