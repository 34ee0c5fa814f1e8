import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { ioError, isReadOnlyError } from './io-error.js';
import { acquireLockFile, describeHolder, type LockHolder } from './lock-file.js';

/** The name of the writer lock in a data dir. */
export const dataDirLockName = '.dsh.lock';

/** What `acquireDataDirLock` found. */
export type DataDirLock =
  | { readonly kind: 'acquired'; readonly path: string; readonly release: () => Promise<void> }
  | { readonly kind: 'held'; readonly path: string; readonly holder: LockHolder }
  /** The dir cannot be written: serve it read-only; `reason` says why and what to do. */
  | { readonly kind: 'read_only'; readonly path: string; readonly reason: string };

/**
 * Takes the one-writer lock of a data dir (`<dataDir>/.dsh.lock`), so two processes
 * never append to the same journals: every process that writes sessions (`dsh serve`,
 * `dsh import`) takes it first and keeps it until it exits. Creates the data dir when
 * missing. A dir that refuses writes is reported as `read_only`; a full disk or another
 * I/O failure throws a `JournalError` naming the data dir.
 */
export async function acquireDataDirLock(dataDir: string, purpose: string): Promise<DataDirLock> {
  const path = join(dataDir, dataDirLockName);
  const fail = (error: unknown) =>
    ioError(error, { action: `cannot take the data dir lock ${path}`, path, dataDir });
  try {
    await mkdir(dataDir, { recursive: true });
  } catch (error) {
    if (!isReadOnlyError(error)) throw fail(error);
  }
  const result = await acquireLockFile(path, purpose).catch((error: unknown) => {
    throw fail(error);
  });
  switch (result.kind) {
    case 'acquired':
      return { kind: 'acquired', path, release: result.release };
    case 'held':
      return { kind: 'held', path, holder: result.holder };
    case 'read_only':
      return { kind: 'read_only', path, reason: fail(result.error).message };
    default: {
      const unknown: never = result;
      throw new Error(`unknown lock result ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * The message for a data dir another process holds: who (pid, what, since when), the
 * lock file, and what to do.
 */
export function dataDirHeldMessage(
  dataDir: string,
  lock: { path: string; holder: LockHolder },
  fix: string,
): string {
  return (
    `the data dir ${dataDir} is in use by another dsh, ${describeHolder(lock.holder)}, ` +
    `which holds ${lock.path}: ${fix}. If that process is not running, remove ${lock.path}`
  );
}
