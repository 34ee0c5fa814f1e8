// @ts-check
import { readlinkSync } from 'node:fs';
import { setPriority } from 'node:os';

/**
 * Lowers the scheduling priority of the calling thread (on Linux a nice value applies per
 * thread; `/proc/thread-self` names it), so on a busy machine the host's own thread is
 * scheduled before a worker burning CPU for a tool. Does nothing where unsupported.
 * @param {number} nice
 */
export function lowerThreadPriority(nice) {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, nice);
  } catch {
    // Not Linux, or not allowed: the thread keeps the process's priority.
  }
}
