/** Coalesces change notifications: many changes in one task give one call. */
export interface ChangeNotifier {
  /** Marks the state changed; `emit` runs once, after the current task. */
  schedule(): void;
  /** Runs a scheduled `emit` now (no-op when none is scheduled). */
  flush(): void;
  /** Drops a scheduled `emit`. */
  cancel(): void;
}

/**
 * Creates a notifier that calls `emit` on a zero-delay timer, so a burst of frames read
 * from one network chunk costs one fold commit and one render.
 */
export function createChangeNotifier(emit: () => void): ChangeNotifier {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = (): void => {
    timer = undefined;
    emit();
  };
  return {
    schedule() {
      timer ??= setTimeout(run, 0);
    },
    flush() {
      if (timer === undefined) return;
      clearTimeout(timer);
      run();
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}
