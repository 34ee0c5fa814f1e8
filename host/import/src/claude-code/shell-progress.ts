/** Live output an import writes for one call at most; past it one last delta says so. */
export const progressBudgetChars = 1_048_576;

/** What an import has shown of one running shell call's progress. */
export interface ProgressSeen {
  /** The last `fullOutput` Claude Code reported for the call. */
  readonly seen: string;
  /** Characters written as `tool/output` so far. */
  readonly sent: number;
  /** The budget ran out: nothing more is written for the call. */
  readonly stopped: boolean;
}

/** The next delta of a call and what has been shown after it. */
export interface ProgressStep {
  readonly text: string;
  readonly truncated: boolean;
  readonly next: ProgressSeen;
}

/** Candidate overlaps tried when `fullOutput` is a rolling tail; bounds the work per line. */
const maxOverlapTries = 64;

/**
 * The text `full` adds to `seen`. Claude Code's `fullOutput` is the output so far, or
 * only its newest lines once it grows: then the longest end of `seen` that `full` starts
 * with is what both show, and the rest is new. With no overlap all of `full` is new.
 */
export function progressDelta(seen: string, full: string): string {
  if (full.startsWith(seen)) return full.slice(seen.length);
  const lineEnd = full.indexOf('\n');
  const head = lineEnd < 0 ? full : full.slice(0, lineEnd + 1);
  let at = seen.indexOf(head);
  for (let tries = 0; at >= 0 && tries < maxOverlapTries; tries++) {
    if (full.startsWith(seen.slice(at))) return full.slice(seen.length - at);
    at = seen.indexOf(head, at + 1);
  }
  return full;
}

/**
 * One `bash_progress` line of a running call: the delta to write (empty when nothing is
 * new or the budget is spent) and the call's state after it.
 */
export function progressStep(previous: ProgressSeen | undefined, full: string): ProgressStep {
  const before = previous ?? { seen: '', sent: 0, stopped: false };
  const delta = before.stopped ? '' : progressDelta(before.seen, full);
  const room = progressBudgetChars - before.sent;
  const truncated = delta.length > room;
  const text = truncated ? delta.slice(0, Math.max(0, room)) : delta;
  return {
    text,
    truncated,
    next: { seen: full, sent: before.sent + text.length, stopped: before.stopped || truncated },
  };
}
