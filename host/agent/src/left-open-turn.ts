import type { Journal } from '@dsh/journal';
import { danglingTurnClosing, type DanglingReason } from './dangling-turn.js';
import type { EventRecorder } from './event-recorder.js';
import { retryThroughOutage } from './outage-retry.js';

/**
 * A turn whose end the journal could not take: the next turn (or requested compaction)
 * closes it first, the way recovery would, so no call it left open shows as running.
 */
export interface LeftOpenTurn {
  /** Set while a turn is left open. */
  readonly reason: DanglingReason | undefined;
  mark(reason: DanglingReason): void;
  /**
   * Closes the turn the journal still shows open, if any. While the store is unreachable
   * it waits for it (backoff up to 2 s); other failures throw.
   */
  close(): Promise<void>;
}

/** The reason a turn's journal closes with when the host could not write its end. */
export function writeFailure(turn: number, cause: unknown): DanglingReason {
  const why = cause instanceof Error ? cause.message : String(cause);
  return {
    message:
      `Turn ${turn} stopped: the host could not write to this session's journal (${why}). ` +
      'Calls still open were interrupted; send a new prompt to continue.',
    code: 'journal_write_failed',
  };
}

/** Creates the left-open tracker of one session; no turn is left open at first. */
export function createLeftOpenTurn(journal: Journal, recorder: EventRecorder): LeftOpenTurn {
  let leftOpen: DanglingReason | undefined;
  return {
    get reason() {
      return leftOpen;
    },
    mark(reason) {
      leftOpen = reason;
    },
    async close() {
      if (leftOpen === undefined) return;
      const reason = leftOpen;
      await retryThroughOutage(async () => {
        const closing = await danglingTurnClosing(journal, reason);
        if (closing.length > 0) await recorder.record(closing);
      }, undefined);
      leftOpen = undefined;
    },
  };
}
