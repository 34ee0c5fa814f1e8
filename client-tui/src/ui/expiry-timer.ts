import { workingSince } from './status-facts.js';
import type { TuiState } from './tui-state.js';

/** One timer for the next thing on screen that ends by the clock. */
export interface ExpiryTimer {
  /** Re-arms the timer for the state as drawn now. */
  arm(): void;
  dispose(): void;
}

/**
 * Status messages and confirmation windows end at their `until`, and the "reconnecting in
 * N s" countdown and a running turn's "working N s" tick once a second: this timer clears
 * what ended and asks for a redraw, so nothing on screen outlives its time or stands still
 * while a turn waits for the person. Idle otherwise.
 */
export function createExpiryTimer(
  state: TuiState,
  now: () => number,
  redraw: () => void,
): ExpiryTimer {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const clear = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };
  return {
    arm() {
      clear();
      const reconnecting =
        state.list?.connection.kind === 'reconnecting' ||
        state.open?.window.state.connection.kind === 'reconnecting';
      const since = workingSince(state);
      const t = now();
      const ends = [
        state.flash?.until,
        state.confirm?.until,
        reconnecting ? t + 1000 : undefined,
        // The next whole second of the working time.
        since === undefined ? undefined : t + 1000 - ((((t - since) % 1000) + 1000) % 1000),
      ].filter((t): t is number => t !== undefined && Number.isFinite(t));
      if (ends.length === 0) return;
      const wait = Math.max(0, Math.min(...ends) - t) + 5;
      timer = setTimeout(() => {
        timer = undefined;
        const t = now();
        if (state.flash && state.flash.until < t) state.flash = undefined;
        if (state.confirm && state.confirm.until < t) state.confirm = undefined;
        redraw();
      }, wait);
    },
    dispose: clear,
  };
}
