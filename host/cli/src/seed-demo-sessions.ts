import { constants } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { recoverDanglingTurn, type DanglingReason } from '@dsh/agent';
import { createJournalStore, dataDirLockName } from '@dsh/journal-file';

/** What seeding did: the files copied, or why nothing was. */
export type SeedResult = { seeded: string[] } | { seeded: []; skipped: string };

/**
 * Copies the demo journals (`*.jsonl` in `sourceDir`, or only the named sessions) into
 * `dataDir` when the data dir is missing or empty (but for its lock), so a first start
 * shows sessions. An existing data dir is never touched, and an existing file is never
 * overwritten. A demo whose last turn was recorded still open (an approval waiting) is
 * closed in the copy, a second after its last event, since no host runs that turn.
 */
export async function seedDemoSessions(
  dataDir: string,
  sourceDir: string,
  only?: readonly string[],
): Promise<SeedResult> {
  const existing = (await listDir(dataDir))?.filter((name) => name !== dataDirLockName);
  if (existing !== undefined && existing.length > 0) {
    return { seeded: [], skipped: `the data dir ${dataDir} is not empty` };
  }
  const sources = ((await listDir(sourceDir)) ?? [])
    .filter((name) => name.endsWith('.jsonl'))
    .filter((name) => only === undefined || only.includes(name.slice(0, -'.jsonl'.length)))
    .sort();
  if (sources.length === 0) {
    return { seeded: [], skipped: `there are no demo journals (*.jsonl) in ${sourceDir}` };
  }
  await mkdir(dataDir, { recursive: true });
  const seeded: string[] = [];
  for (const name of sources) {
    try {
      await copyFile(join(sourceDir, name), join(dataDir, name), constants.COPYFILE_EXCL);
      seeded.push(name);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  await closeOpenTurns(dataDir, seeded);
  return { seeded };
}

/** Why a seeded demo's open turn ends, as its closing `agent/error` says. */
const seededReason: DanglingReason = {
  message:
    'This demo was recorded with its last turn still open, waiting for an answer. No host ' +
    'runs that turn, so it was closed when the demo was copied into this data dir: what it ' +
    'waited for is cancelled. Send a prompt to start a new turn.',
  code: 'demo_seeded',
};

async function closeOpenTurns(dataDir: string, names: readonly string[]): Promise<void> {
  const store = await createJournalStore({ dataDir });
  try {
    for (const name of names) {
      const journal = await store.open(name.slice(0, -'.jsonl'.length));
      const after = new Date(journal.updatedAt.getTime() + 1000);
      await recoverDanglingTurn(journal, seededReason, after);
    }
  } finally {
    await store.close();
  }
}

async function listDir(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
