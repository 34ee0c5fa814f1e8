/** Coalesces redraw requests: at most one draw per event-loop turn, none while idle. */
export interface RenderScheduler {
  schedule(): void;
  /** Draws now if a draw is pending (tests, shutdown). */
  flush(): void;
  /** Draws done so far. */
  readonly renders: number;
  dispose(): void;
}

/** Creates a scheduler around `draw`; `schedule()` from anywhere, any number of times. */
export function createRenderScheduler(draw: () => void): RenderScheduler {
  let pending: NodeJS.Immediate | undefined;
  let renders = 0;
  let disposed = false;
  const run = () => {
    pending = undefined;
    if (disposed) return;
    renders++;
    draw();
  };
  return {
    schedule() {
      if (pending === undefined && !disposed) pending = setImmediate(run);
    },
    flush() {
      if (pending === undefined) return;
      clearImmediate(pending);
      run();
    },
    get renders() {
      return renders;
    },
    dispose() {
      disposed = true;
      if (pending !== undefined) clearImmediate(pending);
      pending = undefined;
    },
  };
}
