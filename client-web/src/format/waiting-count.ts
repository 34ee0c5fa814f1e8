import type { SessionSummary } from '@dsh/gen/service';

/**
 * How many approvals and questions a session waits on, the one place that decides it:
 * the host's own count when its summary carries one, else the count the client derived
 * (from the open session's window, or a background session's tail page). A session that
 * is not running waits on nothing: no turn could take an answer.
 */
export function waitingCount(summary: SessionSummary, derived: number | undefined): number {
  if (!summary.running) return 0;
  const reported = (summary as { pendingCount?: number }).pendingCount;
  return reported ?? derived ?? 0;
}
