import { JournalError } from '@dsh/journal';

/** Where a failed file operation happened, for the message. */
export interface IoContext {
  /** What was being done, as the message starts: `session s-1: cannot append`. */
  readonly action: string;
  /** The file or dir the operation touched. */
  readonly path: string;
  /** The data dir the file lives in (what the person must fix). */
  readonly dataDir: string;
}

/** Error codes of a file system that refuses writes. */
const readOnlyCodes = new Set(['EROFS', 'EACCES', 'EPERM']);

/** The errno code of a Node file-system error, or '' for anything else. */
export function errnoCode(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return typeof code === 'string' ? code : '';
}

/** True for the errors a read-only file system, file or dir gives on a write. */
export function isReadOnlyError(error: unknown): boolean {
  return readOnlyCodes.has(errnoCode(error));
}

/**
 * Maps a failed file operation of the journal to the one journal error type, with a
 * message that names the data dir and the fix: a full disk is `no_space`, a read-only
 * file system or missing write permission is `read_only`, and any other I/O failure is
 * `unavailable`. A `JournalError` passes through unchanged.
 */
export function ioError(error: unknown, context: IoContext): JournalError {
  if (error instanceof JournalError) return error;
  const code = errnoCode(error);
  const { action, path, dataDir } = context;
  const detail = (error as Error | undefined)?.message ?? String(error);
  switch (code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return new JournalError(
        'no_space',
        `${action}: the disk holding the data dir ${dataDir} is full (${code}): free space on it, then retry`,
      );
    case 'EROFS':
      return new JournalError(
        'read_only',
        `${action}: the data dir ${dataDir} is on a read-only file system (EROFS): its sessions can be read but not written; remount it read-write, or serve a writable --data-dir`,
      );
    case 'EACCES':
    case 'EPERM':
      return new JournalError(
        'read_only',
        `${action}: no permission to write ${path} (${code}): its sessions can be read but not written; give the user running dsh write access to the data dir ${dataDir}`,
      );
    case 'EMFILE':
    case 'ENFILE':
      return new JournalError(
        'unavailable',
        `${action}: too many open files (${code}): raise the open-file limit (ulimit -n), then retry`,
      );
    default:
      return new JournalError(
        'unavailable',
        `${action}: I/O error on ${path} (${code === '' ? detail : `${code}: ${detail}`}): check the disk holding the data dir ${dataDir}, then retry`,
      );
  }
}
