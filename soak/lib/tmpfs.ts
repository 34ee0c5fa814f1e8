import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';

/** Whether this process may mount file systems (root). */
export const canMount = process.getuid?.() === 0;

/** Mount points made by this run and not yet unmounted. */
const mounted = new Set<string>();

/** Mounts a tmpfs of `sizeKb` KiB on `path`; throws with mount's message when it cannot. */
export function mountTmpfs(path: string, sizeKb: number): void {
  mkdirSync(path, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${sizeKb}k`, 'tmpfs', path], { stdio: 'pipe' });
  mounted.add(path);
}

/** Unmounts whatever this run still has mounted (an interrupted run). */
export function unmountAll(): void {
  for (const path of mounted) unmount(path);
}

/** Remounts a mounted tmpfs read-only or read-write. */
export function remount(path: string, mode: 'ro' | 'rw'): void {
  execFileSync('mount', ['-o', `remount,${mode}`, path], { stdio: 'pipe' });
}

/** Unmounts `path`, lazily when something still holds it; never throws. */
export function unmount(path: string): void {
  mounted.delete(path);
  try {
    execFileSync('umount', [path], { stdio: 'pipe' });
  } catch {
    try {
      execFileSync('umount', ['-l', path], { stdio: 'pipe' });
    } catch {
      // Not mounted.
    }
  }
}
