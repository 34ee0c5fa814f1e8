import { basename } from 'node:path';

/** The prefix of every imported session id. */
export const importedIdPrefix = 'cc-';

/** A name made safe for a session id: letters, digits, '-' and '_' only. */
function clean(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_');
}

/** The transcript's file name without `.jsonl`. */
export function transcriptName(path: string): string {
  return basename(path).replace(/\.jsonl$/i, '');
}

/** `cc-<claude session id>`: the dsh id of a Claude Code session (valid id characters). */
export function importedSessionId(claudeSessionId: string): string {
  return `${importedIdPrefix}${clean(claudeSessionId)}`.slice(0, 128);
}

/** The dsh id of a sub-agent transcript: `cc-<parent session>-<file name>`. */
export function subagentSessionId(parentClaudeId: string, path: string): string {
  return `${importedSessionId(parentClaudeId)}-${clean(transcriptName(path))}`.slice(0, 128);
}

/** The dsh id of the k-th sidechain interleaved in a main transcript (1-based). */
export function sidechainSessionId(mainId: string, k: number): string {
  const suffix = `-side-${k}`;
  return `${mainId.slice(0, 128 - suffix.length)}${suffix}`;
}
