import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { importStateDirName } from './import-state.js';

const held = new Map<string, number>();

/**
 * Takes the data dir's import lock, so two processes never append to the same imported
 * journals (`dsh import` while `dsh serve --watch-claude` runs). Re-entrant within a
 * process; a lock left by a dead process is taken over. Resolves with its release.
 */
export async function acquireImportLock(dataDir: string): Promise<() => Promise<void>> {
  const dir = join(dataDir, importStateDirName);
  const path = join(dir, 'lock');
  const release = async (): Promise<void> => {
    const count = (held.get(path) ?? 1) - 1;
    if (count > 0) return void held.set(path, count);
    held.delete(path);
    await rm(path, { force: true });
  };
  if (held.has(path)) {
    held.set(path, held.get(path)! + 1);
    return release;
  }
  await mkdir(dir, { recursive: true });
  for (let attempt = 0; attempt < 2; attempt += 1) {
    try {
      const fd = await open(path, 'wx');
      await fd.writeFile(String(process.pid));
      await fd.close();
      held.set(path, 1);
      return release;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const pid = Number(await readFile(path, 'utf8').catch(() => ''));
      if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
        throw new Error(
          `another dsh (pid ${pid}) is importing Claude Code transcripts into ${dataDir}: stop it first (or remove ${path} if it is stale)`,
        );
      }
      await rm(path, { force: true });
    }
  }
  throw new Error(`cannot take the import lock ${path}: remove it and retry`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
