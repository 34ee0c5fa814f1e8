import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { SidechainRoutes } from './claude-code/sidechain-routes.js';
import { isRecord } from './json-fields.js';

/** The folder of the data dir that holds the Claude Code import's state files. */
export const importStateDirName = '.claude-code-import';

/** The folder of the data dir that holds the Codex import's state files. */
export const codexStateDirName = '.codex-import';

/** One dsh session written from a transcript (the main one or a sidechain). */
export interface TargetState<C = unknown> {
  /** The dsh session id; '' until the journal is created. */
  id: string;
  parentId: string;
  /** Events this import has written to the journal. */
  length: number;
  /** The converter's state, to continue where it stopped. */
  converter: C;
}

/**
 * What an import of one transcript file has consumed: the byte offset and line count
 * read, and per dsh session the converter state and the events written. Saved after
 * every append, so a re-run continues instead of duplicating.
 */
export interface ImportState<C = unknown> {
  version: 1;
  source: string;
  offset: number;
  lines: number;
  targets: Record<string, TargetState<C>>;
  /** Old-style interleaved sidechains of a Claude Code transcript (empty for other formats). */
  sidechains: SidechainRoutes;
}

/** The state file of a transcript path inside a data dir (`dirName`: the format's folder). */
export function importStatePath(
  dataDir: string,
  source: string,
  dirName: string = importStateDirName,
): string {
  const key = createHash('sha256').update(source).digest('hex').slice(0, 24);
  return join(dataDir, dirName, `${key}.json`);
}

/** Reads the saved state; `undefined` when there is none, an error text when unreadable. */
export async function loadImportState<C = unknown>(
  path: string,
  source: string,
): Promise<ImportState<C> | undefined | string> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return `cannot read import state ${path}: ${(error as Error).message}`;
  }
  try {
    const state = JSON.parse(text) as unknown;
    if (
      isRecord(state) &&
      state.version === 1 &&
      state.source === source &&
      isRecord(state.targets)
    ) {
      return state as unknown as ImportState<C>;
    }
  } catch {
    // Reported below.
  }
  return `import state ${path} is not valid: delete it and the sessions it names to re-import`;
}

/** Writes the state atomically (a temporary file renamed over the old one). */
export async function saveImportState<C>(path: string, state: ImportState<C>): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  const temporary = `${path}.tmp`;
  await writeFile(temporary, JSON.stringify(state));
  await rename(temporary, path);
}
