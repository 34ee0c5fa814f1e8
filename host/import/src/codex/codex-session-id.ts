import { basename } from 'node:path';

/** The prefix of every session imported from Codex. */
export const codexIdPrefix = 'codex-';

/**
 * `codex-<Codex session id>`: the dsh id of a rollout's session (its `session_meta` id, or
 * the file name's trailing id when the rollout has none). A spawned sub-agent's thread id
 * gives its session's id the same way, so a parent links a child before it is imported.
 */
export function codexSessionId(codexId: string, path = ''): string {
  const fromName = /([0-9a-f]{8}-[0-9a-f-]{27,})\.jsonl$/i.exec(basename(path))?.[1];
  const id = codexId || fromName || basename(path).replace(/\.jsonl$/i, '');
  return `${codexIdPrefix}${id.replace(/[^A-Za-z0-9_-]/g, '_')}`.slice(0, 128);
}
