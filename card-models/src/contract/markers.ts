/**
 * Strings the host's tools write into model-visible content and the card models parse
 * back out. Producer and parser share these definitions so they cannot drift apart.
 */

/** The trailing line of a standard shell command that exited: `[exit code: N]`. */
export function exitMarker(code: number): string {
  return `[exit code: ${code}]`;
}

/** The trailing line of a standard shell command killed by a signal: `[killed by signal: SIGKILL]`. */
export function signalMarker(signal: string): string {
  return `[killed by signal: ${signal}]`;
}

/** What ended a shell command, as written in its trailing marker line. */
export type ShellEnding = { kind: 'exit'; code: number } | { kind: 'signal'; signal: string };

const endingPattern = /(?:^|\n)\[(?:exit code: (-?\d+)|killed by signal: ([A-Z0-9]+))\]\n?$/;

/**
 * Splits a trailing exit or signal marker off shell output. Returns the body without
 * the marker line, and the ending, or `undefined` when the output has no marker.
 */
export function parseShellEnding(
  output: string,
): { body: string; ending: ShellEnding } | undefined {
  const match = endingPattern.exec(output);
  if (!match) return undefined;
  const body = output.slice(0, match.index);
  if (match[1] !== undefined) return { body, ending: { kind: 'exit', code: Number(match[1]) } };
  return { body, ending: { kind: 'signal', signal: match[2] ?? '' } };
}

/** The notice a shell writes into the body when a command ran past its timeout. */
export function timeoutNotice(timeoutMs: number): string {
  return `[timed out after ${timeoutMs} ms]`;
}

const timeoutPattern = /(?:^|\n)\[timed out after (\d+) ms\]\n?$/;

/**
 * The time limit named by a timeout notice on the last line of shell output (the body
 * once the exit or signal marker is split off), or `undefined` when it has none.
 */
export function parseTimeoutNotice(output: string): number | undefined {
  const match = timeoutPattern.exec(output);
  return match ? Number(match[1]) : undefined;
}

/**
 * The last line of output that went over the limit: the head of the output stays in
 * the content and the whole of it is in the named file.
 */
export function spillNotice(path: string, totalBytes: number): string {
  return `[output truncated: ${totalBytes} bytes in total, full output saved to ${path}]`;
}

const spillPattern =
  /(?:^|\n)\[output truncated: (\d+) bytes in total, full output saved to (.+)\]\n?$/;

/** Finds a spill notice at the end of output: the file it names and the total size. */
export function parseSpillNotice(output: string): { path: string; totalBytes: number } | undefined {
  const match = spillPattern.exec(output);
  if (!match) return undefined;
  return { totalBytes: Number(match[1]), path: match[2] ?? '' };
}

/** The whole content of a standard shell call launched with `background: true`. */
export function backgroundAck(job: { jobId: string; pid: number; outputPath: string }): string {
  return `Started in background: job ${job.jobId} (pid ${job.pid}); output goes to ${job.outputPath}`;
}

const backgroundPattern = /^Started in background: job (\S+) \(pid (\d+)\); output goes to (.+)$/;

/** Recognises a background acknowledgement. */
export function parseBackgroundAck(
  content: string,
): { jobId: string; pid: number; outputPath: string } | undefined {
  const match = backgroundPattern.exec(content.trim());
  if (!match) return undefined;
  return { jobId: match[1] ?? '', pid: Number(match[2]), outputPath: match[3] ?? '' };
}

/** The acknowledgement of `terminal_send` with `background: true`. */
export function terminalSendAck(session: string): string {
  return `Sent to terminal ${session} in background`;
}

/** The last line of a truncated grep or glob listing, telling the model how to recover. */
export function searchTruncationHint(shown: number, total: number): string {
  return `[showing ${shown} of ${total} results; narrow the pattern or path, or raise max_results]`;
}

const truncationPattern = /(?:^|\n)(\[showing \d+ of \d+ results;[^\]\n]*\])\n?$/;

/** Finds the recovery hint at the end of a truncated search listing. */
export function parseSearchTruncationHint(content: string): string | undefined {
  return truncationPattern.exec(content)?.[1];
}

/** Structured error codes shared by tools and cards. */
export const errorCodes = {
  /** The call was left open when the turn was cancelled. */
  interrupted: 'interrupted',
  /** A person denied the call, or policy denies the tool. */
  denied: 'denied',
  /** The arguments were not valid JSON or did not fit the tool's contract. */
  invalidArguments: 'invalid_arguments',
  /** The person declined to answer the questions. */
  cancelled: 'cancelled',
  /** The call ran past its time limit. */
  timeout: 'timeout',
  /**
   * A shell command ran and failed without a recorded exit code (imported transcripts of
   * agents that flag the failure but do not say the code): its output is still terminal output.
   */
  commandFailed: 'command_failed',
} as const;

/** The message recorded for calls left open by a cancelled turn. */
export const interruptedMessage = 'Interrupted: the turn was cancelled before this call finished.';
