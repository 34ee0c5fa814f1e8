import type { SessionSummary } from '@dsh/gen/service';

/**
 * How many approvals and questions a session waits on, the one place that decides it:
 * the open session's live window when it is given (it sees an answer before the list
 * does), else the host's count from the session's summary. A session that is not
 * running waits on nothing: no turn could take an answer.
 */
export function waitingCount(summary: SessionSummary, open: number | undefined): number {
  if (!summary.running) return 0;
  return open ?? summary.pending;
}
