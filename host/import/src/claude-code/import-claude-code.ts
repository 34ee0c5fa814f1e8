import { realpath, stat } from 'node:fs/promises';
import type { FileJournalStore } from '@dsh/journal-file';
import { findTranscripts } from './find-transcripts.js';
import { acquireImportLock } from '../import-lock.js';
import { importStatePath, loadImportState } from '../import-state.js';
import { importTranscript } from './import-transcript.js';
import { isInternalAgent } from './subagent-links.js';
import { fileSizes } from '../file-sizes.js';

/** Options of `importClaudeCode`. */
export interface ImportClaudeCodeOptions {
  /** Problems that skip a line or a file, one message each. */
  readonly onWarning?: (message: string) => void;
  /** Bytes consumed over all transcripts, and the total, after each batch. */
  readonly onProgress?: (done: number, total: number) => void;
}

/** What an import did. */
export interface ImportSummary {
  readonly files: number;
  /** Ids of the sessions the transcripts feed (new or continued). */
  readonly sessions: string[];
  /** Events appended now (0 when nothing changed since the last import). */
  readonly events: number;
  readonly malformed: number;
  /** Transcripts that failed, each with the reason; the others are imported. */
  readonly failed: { path: string; error: string }[];
  /**
   * Files left out on purpose, each with the reason: files of another format in a dir,
   * Claude Code's own internal agents (compaction, prompt suggestions), empty files.
   */
  readonly skipped: { path: string; reason: string }[];
}

/**
 * Imports every Claude Code transcript under `path` (a projects dir, a project dir or one
 * `.jsonl` file) into the store's data dir: new transcripts become sessions, grown ones
 * are continued, unchanged ones cost a stat. One failing transcript does not stop the rest.
 */
export async function importClaudeCode(
  store: FileJournalStore,
  path: string,
  options: ImportClaudeCodeOptions = {},
): Promise<ImportSummary> {
  const root = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'it does not exist' : error.message;
    throw new Error(
      `cannot import ${path}: ${reason} (give a transcript or a dir such as ~/.claude/projects)`,
    );
  });
  const single = (await stat(root)).isFile();
  const found = await findTranscripts(root);
  const skipped: { path: string; reason: string }[] = [];
  const files = found.filter((file) => {
    if (!isInternalAgent(file.path) || file.kind !== 'subagent') return true;
    skipped.push({
      path: file.path,
      reason: "one of Claude Code's internal agents (not a sub-agent of the conversation)",
    });
    return false;
  });
  const release = await acquireImportLock(store.dataDir);
  try {
    const { sizes, total } = await fileSizes(files.map((f) => f.path));
    let base = 0;
    const sessions: string[] = [];
    const failed: { path: string; error: string }[] = [];
    let events = 0;
    let malformed = 0;
    for (const [i, file] of files.entries()) {
      const size = sizes[i] ?? 0;
      try {
        const saved = await loadImportState(importStatePath(store.dataDir, file.path), file.path);
        if (typeof saved === 'object' && saved.offset === size) {
          sessions.push(
            ...Object.values(saved.targets)
              .map((t) => t.id)
              .filter((id) => id !== ''),
          );
        } else {
          const result = await importTranscript(store, file, {
            flush: 'final',
            onWarning: options.onWarning,
            onProgress: (offset) => options.onProgress?.(base + offset, total),
          });
          if (result.refused !== undefined) {
            const reason = `not imported: ${result.refused}`;
            if (single) failed.push({ path: file.path, error: reason });
            else {
              skipped.push({ path: file.path, reason });
              options.onWarning?.(`${file.path}: ${reason}`);
            }
          }
          if (result.empty === true) skipped.push({ path: file.path, reason: 'it is empty' });
          if (result.waitingFor !== undefined) {
            failed.push({
              path: file.path,
              error: `its parent session ${result.waitingFor} is not imported`,
            });
          }
          sessions.push(...result.sessions);
          events += result.events;
          malformed += result.malformed;
        }
      } catch (error) {
        const message = (error as Error).message;
        failed.push({ path: file.path, error: message });
        options.onWarning?.(`${file.path}: ${message}`);
      }
      base += size;
      options.onProgress?.(base, total);
    }
    return { files: files.length, sessions, events, malformed, failed, skipped };
  } finally {
    await release();
  }
}
