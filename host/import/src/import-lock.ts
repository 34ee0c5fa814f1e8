import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { acquireLockFile, describeHolder } from '@dsh/journal-file';
import { importStateDirName } from './import-state.js';

const held = new Map<string, { count: number; release: () => Promise<void> }>();
/** Acquisitions under way, so concurrent callers in one process share one lock. */
const taking = new Map<string, Promise<unknown>>();

/**
 * Takes the data dir's import lock, so two processes never append to the same imported
 * journals (`dsh import` while `dsh serve --watch-claude` runs). The lock file is the
 * journal's lock primitive (created whole, stale holders detected by pid and start
 * time). Re-entrant within a process. Resolves with its release.
 */
export async function acquireImportLock(dataDir: string): Promise<() => Promise<void>> {
  const dir = join(dataDir, importStateDirName);
  const path = join(dir, 'lock');
  const release = async (): Promise<void> => {
    const entry = held.get(path);
    if (entry === undefined) return;
    entry.count -= 1;
    if (entry.count > 0) return;
    held.delete(path);
    await entry.release();
  };
  await taking.get(path)?.catch(() => undefined);
  const entry = held.get(path);
  if (entry !== undefined) {
    entry.count += 1;
    return release;
  }
  const acquiring = (async () => {
    await mkdir(dir, { recursive: true });
    const lock = await acquireLockFile(path, 'importing Claude Code transcripts');
    if (lock.kind === 'acquired') held.set(path, { count: 0, release: lock.release });
    return lock;
  })();
  taking.set(path, acquiring);
  const lock = await acquiring.finally(() => taking.delete(path));
  switch (lock.kind) {
    case 'acquired': {
      const taken = held.get(path);
      if (taken === undefined) return acquireImportLock(dataDir); // Released meanwhile.
      taken.count += 1;
      return release;
    }
    case 'held':
      throw new Error(
        `another dsh, ${describeHolder(lock.holder)}, is importing Claude Code transcripts into ${dataDir}: ` +
          `stop it first (or remove ${path} if that process is not running)`,
      );
    case 'read_only':
      throw new Error(
        `cannot import into ${dataDir}: it cannot be written (${lock.error.code ?? lock.error.message})`,
      );
    default: {
      const unknown: never = lock;
      throw new Error(`unknown lock result ${JSON.stringify(unknown)}`);
    }
  }
}
