import { constants } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** What seeding did: the files copied, or why nothing was. */
export type SeedResult = { seeded: string[] } | { seeded: []; skipped: string };

/**
 * Copies the demo journals (`*.jsonl` in `sourceDir`, or only the named sessions) into
 * `dataDir` when the data dir is missing or empty, so a first start shows sessions. An
 * existing data dir is never touched, and an existing file is never overwritten.
 */
export async function seedDemoSessions(
  dataDir: string,
  sourceDir: string,
  only?: readonly string[],
): Promise<SeedResult> {
  const existing = await listDir(dataDir);
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
  return { seeded };
}

async function listDir(dir: string): Promise<string[] | undefined> {
  try {
    return await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
