import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { TranscriptFile } from './import-transcript.js';

const maxDepth = 4;

/**
 * Classifies a transcript path by Claude Code's layout: `<project>/<id>/subagents/*.jsonl`
 * is a sub-agent of session `<id>`, `<project>/agent-*.jsonl` a sub-agent whose lines name
 * its session, anything else a main transcript.
 */
export function transcriptFile(path: string): TranscriptFile {
  const parentDir = dirname(path);
  if (basename(parentDir) === 'subagents') {
    return { path, kind: 'subagent', parentClaudeId: basename(dirname(parentDir)) };
  }
  if (basename(path).startsWith('agent-')) return { path, kind: 'subagent' };
  return { path, kind: 'main' };
}

/**
 * Every transcript under `path` (a `.jsonl` file, a project dir or the projects dir),
 * main transcripts first so parents exist before their sub-agents, each group by path.
 */
export async function findTranscripts(path: string): Promise<TranscriptFile[]> {
  const info = await stat(path);
  if (info.isFile()) return [transcriptFile(path)];
  const found: TranscriptFile[] = [];
  const walk = async (dir: string, depth: number): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      const child = join(dir, entry.name);
      if (entry.isDirectory() && depth < maxDepth) await walk(child, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(transcriptFile(child));
    }
  };
  await walk(path, 0);
  const rank = (file: TranscriptFile): number => (file.kind === 'main' ? 0 : 1);
  return found.sort(
    (a, b) => rank(a) - rank(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0),
  );
}
