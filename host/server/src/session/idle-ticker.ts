/** A registration with an `IdleTicker`. */
export interface IdleWait {
  readonly since: number;
  readonly wake: () => void;
}

/**
 * Wakes waits that have lasted `idleMs`, from one interval timer for all of them (a fifth
 * of `idleMs` apart, so a wake comes between `idleMs` and 1.2 times it): a thousand idle
 * follow streams cost one timer, not a timer set and cleared per frame each. The timer
 * runs only while something waits.
 */
export class IdleTicker {
  private readonly waits = new Set<IdleWait>();
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly idleMs: number) {}

  /** Calls `wake` once `idleMs` from now, unless `cancel`ed first. */
  add(wake: () => void): IdleWait {
    const wait = { since: performance.now(), wake };
    this.waits.add(wait);
    if (this.timer === undefined) {
      this.timer = setInterval(() => this.tick(), Math.max(1, Math.round(this.idleMs / 5)));
      this.timer.unref();
    }
    return wait;
  }

  cancel(wait: IdleWait): void {
    this.waits.delete(wait);
    if (this.waits.size === 0) this.stop();
  }

  private tick(): void {
    const now = performance.now();
    for (const wait of this.waits) {
      if (now - wait.since < this.idleMs) continue;
      this.waits.delete(wait);
      wait.wake();
    }
    if (this.waits.size === 0) this.stop();
  }

  private stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }
}
