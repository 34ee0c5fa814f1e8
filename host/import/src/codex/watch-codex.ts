import type { FileJournalStore } from '@dsh/journal-file';
import {
  watchFiles,
  type ClaudeCodeWatch,
  type WatchClaudeCodeOptions,
} from '../claude-code/watch-claude-code.js';
import { findRollouts } from './import-codex.js';
import { importRollout } from './import-rollout.js';

/**
 * Keeps the Codex rollouts under `dir` (such as `~/.codex/sessions`) imported, as
 * `watchClaudeCode` does for Claude Code: grown rollouts are appended to their journals
 * through `store` so followers see them live, and a rollout that goes quiet gets the
 * flush a one-time import gives the end of the file.
 */
export function watchCodex(
  store: FileJournalStore,
  dir: string,
  options: WatchClaudeCodeOptions = {},
): Promise<ClaudeCodeWatch> {
  return watchFiles(
    store,
    dir,
    options,
    () => findRollouts(dir).catch(() => []),
    (file, flush) => importRollout(store, file.path, { flush, onWarning: options.onWarning }),
  );
}
