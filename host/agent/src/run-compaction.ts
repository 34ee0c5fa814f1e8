import { CompactionReason } from '@dsh/gen/events';
import { AgentError } from './agent-error.js';
import type { LeftOpenTurn } from './left-open-turn.js';
import { compact, type FitScope } from './model-context.js';
import type { ModelHistory } from './model-history.js';

/**
 * Runs a compaction a person asked for between turns, first closing a turn left open.
 * A failure is logged, not thrown: nobody waits on it, and the history stays as it was.
 */
export async function runCompaction(
  scope: FitScope,
  leftOpen: LeftOpenTurn,
  sessionId: string,
  instruction: string,
): Promise<void> {
  try {
    await leftOpen.close();
    await compact(scope, CompactionReason.REQUESTED, instruction);
  } catch (cause) {
    console.error(`dsh: session ${sessionId}: the requested compaction failed:`, cause);
  }
}

/** Throws the `AgentError` for a compaction with no messages to fold since the last one. */
export function checkCompactable(sessionId: string, history: ModelHistory): void {
  if (history.entryCount > 0) return;
  throw new AgentError(
    'failed_precondition',
    `session ${sessionId} has nothing to compact: no messages since ${
      history.summary === undefined ? 'it started' : 'its last compaction'
    }`,
  );
}
