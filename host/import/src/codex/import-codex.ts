import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileJournalStore } from '@dsh/journal-file';
import type { ImportClaudeCodeOptions, ImportSummary } from '../claude-code/import-claude-code.js';
import { acquireImportLock } from '../import-lock.js';
import { codexStateDirName, importStatePath, loadImportState } from '../import-state.js';
import { importRollout } from './import-rollout.js';
import { fileSizes } from '../file-sizes.js';

const maxDepth = 5;

/** One rollout file found. */
export interface RolloutFile {
  readonly path: string;
}

/**
 * Every `.jsonl` file under `path` (a rollout, or a folder such as `~/.codex/sessions`
 * with its `YYYY/MM/DD/` folders), by path.
 */
export async function findRollouts(path: string): Promise<RolloutFile[]> {
  const info = await stat(path);
  if (info.isFile()) return [{ path }];
  const found: RolloutFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = join(dir, entry.name);
      if (entry.isDirectory() && depth < maxDepth) await walk(child, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push({ path: child });
    }
  };
  await walk(path, 0);
  return found.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/**
 * Imports every Codex rollout under `path` (a sessions dir or one file): new rollouts
 * become sessions, grown ones are continued, unchanged ones cost a stat. Files of another
 * format in a dir are skipped with the reason; one failing rollout does not stop the rest.
 */
export async function importCodex(
  store: FileJournalStore,
  path: string,
  options: ImportClaudeCodeOptions = {},
): Promise<ImportSummary> {
  const root = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'it does not exist' : error.message;
    throw new Error(
      `cannot import ${path}: ${reason} (give a rollout or a dir such as ~/.codex/sessions)`,
    );
  });
  const single = (await stat(root)).isFile();
  const files = await findRollouts(root);
  const release = await acquireImportLock(store.dataDir);
  try {
    const { sizes, total } = await fileSizes(files.map((f) => f.path));
    let base = 0;
    const sessions: string[] = [];
    const failed: { path: string; error: string }[] = [];
    const skipped: { path: string; reason: string }[] = [];
    let events = 0;
    let malformed = 0;
    const waiting: { file: RolloutFile; size: number; parent: string }[] = [];
    const importOne = async (file: RolloutFile, size: number, waitForParent: boolean) => {
      try {
        const statePath = importStatePath(store.dataDir, file.path, codexStateDirName);
        const saved = await loadImportState(statePath, file.path);
        const id = typeof saved === 'object' ? saved.targets.main?.id : undefined;
        if (typeof saved === 'object' && saved.offset === size && id !== undefined && id !== '') {
          sessions.push(id);
          return;
        }
        const result = await importRollout(store, file.path, {
          flush: 'final',
          waitForParent,
          onWarning: options.onWarning,
          onProgress: (offset) => options.onProgress?.(Math.min(base + offset, total), total),
        });
        if (result.waitingFor !== undefined) {
          waiting.push({ file, size, parent: result.waitingFor });
          return;
        }
        if (result.refused !== undefined) {
          const reason = `not imported: ${result.refused}`;
          if (single) failed.push({ path: file.path, error: reason });
          else skipped.push({ path: file.path, reason });
        }
        if (result.empty === true) skipped.push({ path: file.path, reason: 'it is empty' });
        sessions.push(...result.sessions);
        events += result.events;
        malformed += result.malformed;
      } catch (error) {
        const message = (error as Error).message;
        failed.push({ path: file.path, error: message });
        options.onWarning?.(`${file.path}: ${message}`);
      }
    };
    for (const [i, file] of files.entries()) {
      const size = sizes[i] ?? 0;
      await importOne(file, size, true);
      base += size;
      options.onProgress?.(base, total);
    }
    // Sub-agents whose parent came later in path order; a parent not among the files
    // leaves its sub-agent a root session (with a warning).
    for (const { file, size } of waiting.splice(0)) await importOne(file, size, false);
    return { files: files.length, sessions, events, malformed, failed, skipped };
  } finally {
    await release();
  }
}
