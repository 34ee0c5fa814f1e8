import type { FileJournalStore } from '@dsh/journal-file';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import {
  importClaudeCode,
  type ImportClaudeCodeOptions,
  type ImportSummary,
} from './claude-code/import-claude-code.js';
import { importCodex } from './codex/import-codex.js';
import { sniffTranscript, type TranscriptFormat } from './sniff-transcript.js';

const maxDepth = 5;

/**
 * The transcript formats of the `.jsonl` files under `path` (a file or a dir), read from
 * each file's first lines; the walk stops once both formats are seen.
 */
export async function detectFormats(path: string): Promise<Set<TranscriptFormat>> {
  const formats = new Set<TranscriptFormat>();
  const look = async (file: string): Promise<void> => {
    const sniffed = await sniffTranscript(file).catch(() => undefined);
    if (sniffed?.kind === 'format') formats.add(sniffed.format);
  };
  if ((await stat(path)).isFile()) {
    await look(path);
    return formats;
  }
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (formats.size === 2) return;
      const child = join(dir, entry.name);
      if (entry.isDirectory() && depth < maxDepth) await walk(child, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) await look(child);
    }
  };
  await walk(path, 0);
  return formats;
}

/**
 * Imports `path` with the importer of each format found there (Claude Code transcripts,
 * Codex rollouts or both). Files one importer leaves to the other are not reported as
 * skipped; a path holding neither fails naming what it expected.
 */
export async function importDetected(
  store: FileJournalStore,
  path: string,
  options: ImportClaudeCodeOptions = {},
): Promise<ImportSummary & { formats: TranscriptFormat[] }> {
  const root = await realpath(path).catch((error: NodeJS.ErrnoException) => {
    const reason = error.code === 'ENOENT' ? 'it does not exist' : error.message;
    throw new Error(`cannot import ${path}: ${reason}`);
  });
  const formats = [...(await detectFormats(root))].sort();
  if (formats.length === 0) {
    throw new Error(
      `cannot import ${path}: it holds no Claude Code transcript nor Codex rollout (.jsonl files as under ~/.claude/projects or ~/.codex/sessions)`,
    );
  }
  const other = /import it with "dsh import (?:codex|claude-code)"/;
  const onWarning = (message: string): void => {
    if (formats.length === 1 || !other.test(message)) options.onWarning?.(message);
  };
  const summaries: ImportSummary[] = [];
  for (const format of formats) {
    const run = format === 'codex' ? importCodex : importClaudeCode;
    summaries.push(await run(store, root, { ...options, onWarning }));
  }
  return {
    formats,
    files: summaries.reduce((n, s) => n + s.files, 0),
    sessions: summaries.flatMap((s) => s.sessions),
    events: summaries.reduce((n, s) => n + s.events, 0),
    malformed: summaries.reduce((n, s) => n + s.malformed, 0),
    failed: summaries.flatMap((s) =>
      formats.length > 1 ? s.failed.filter((f) => !other.test(f.error)) : s.failed,
    ),
    skipped: summaries.flatMap((s) =>
      formats.length > 1 ? s.skipped.filter((f) => !other.test(f.reason)) : s.skipped,
    ),
  };
}
