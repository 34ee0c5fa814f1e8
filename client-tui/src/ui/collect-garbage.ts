import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// V8's collector, exposed once on first use; null where it cannot be.
let collector: (() => void) | null | undefined;
// The collection asked for last; a new request postpones it (one per pause in paging).
let pending: NodeJS.Timeout | undefined;

/**
 * Gives the memory of a dropped window back: a full garbage collection after `delayMs`,
 * and a second one a second later, which returns the pages the first one emptied (V8
 * keeps them committed until then). A request made before they ran postpones them, so
 * paging page after page collects once, when it pauses. V8 collects when a program
 * allocates, and an idle client allocates next to nothing, so without this a window's
 * released pages would stay resident until the next burst of work. The timers do not
 * keep the process alive; the clients of one process (`dsh ssh`) share them.
 */
export function releaseMemory(delayMs: number): void {
  clearTimeout(pending);
  pending = setTimeout(() => {
    collectGarbage();
    pending = setTimeout(() => {
      pending = undefined;
      collectGarbage();
    }, 1_000).unref();
  }, delayMs).unref();
}

/** Runs a full garbage collection now; a no-op where V8 does not allow it. */
export function collectGarbage(): void {
  if (collector === undefined) {
    const own = (globalThis as { gc?: () => void }).gc;
    try {
      if (own === undefined) setFlagsFromString('--expose-gc');
      collector = own ?? (runInNewContext('gc') as () => void);
    } catch {
      collector = null;
    }
  }
  collector?.();
}
