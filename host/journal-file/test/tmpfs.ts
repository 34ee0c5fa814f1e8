import { execFileSync } from 'node:child_process';
import { mkdtemp, open, rm, rmdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A small tmpfs mounted in a temp dir: a real disk that can be filled and made read-only. */
export interface Tmpfs {
  readonly dir: string;
  /** Writes a filler file until the disk is full (to the last byte). */
  fill(): Promise<void>;
  /** Removes the filler file. */
  free(): Promise<void>;
  /** Remounts read-only (no file may be open for writing) or read-write again. */
  remount(mode: 'ro' | 'rw'): void;
  unmount(): Promise<void>;
}

/**
 * Why these tests cannot mount a tmpfs here, or undefined when they can. Mounting needs
 * root; CI runs as root, so on CI a root that still cannot mount fails instead of
 * skipping.
 */
export function tmpfsMissing(): string | undefined {
  if (process.getuid?.() !== 0) return 'mounting a tmpfs needs root (run the tests as root)';
  try {
    execFileSync('mount', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'mount(8) is missing: apt-get install mount';
  }
  return undefined;
}

/** Mounts a tmpfs of `bytes` bytes in a fresh temp dir. */
export async function mountTmpfs(bytes: number): Promise<Tmpfs> {
  const dir = await mkdtemp(join(tmpdir(), 'dsh-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir]);
  const filler = join(dir, '.filler');
  return {
    dir,
    async fill() {
      const fd = await open(filler, 'a');
      try {
        for (let size = 1 << 16; size >= 1; size >>= 1) {
          const block = Buffer.alloc(size);
          for (;;) {
            try {
              await fd.write(block);
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await fd.close();
      }
    },
    async free() {
      await rm(filler, { force: true });
    },
    remount(mode) {
      execFileSync('mount', ['-o', `remount,${mode}`, dir]);
    },
    async unmount() {
      execFileSync('umount', ['-l', dir]);
      await rmdir(dir);
    },
  };
}
