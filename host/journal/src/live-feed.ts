interface Subscriber<T> {
  batches: (readonly T[])[];
  wake: (() => void) | undefined;
  done: boolean;
}

/**
 * Fans batches pushed in one process out to live iterables, the shape `JournalLog.tail`
 * and `JournalBackend.watch` have: each subscription first yields an empty batch once it
 * is registered, then every batch pushed after that, in order. A subscription is removed
 * and its queue dropped the moment its signal aborts (even while its reader is suspended
 * elsewhere), when its reader stops, or when the feed closes.
 */
export class LiveFeed<T> {
  private readonly subscribers = new Set<Subscriber<T>>();
  private closed = false;

  /** Subscriptions currently registered. */
  get count(): number {
    return this.subscribers.size;
  }

  /** Hands `items` to every subscription (nothing when empty). */
  push(items: readonly T[]): void {
    if (items.length === 0) return;
    for (const subscriber of this.subscribers) {
      subscriber.batches.push(items);
      wake(subscriber);
    }
  }

  /** A live iterable of the batches pushed from its first step on, until `signal` aborts. */
  subscribe(signal: AbortSignal): AsyncIterable<readonly T[]> {
    return { [Symbol.asyncIterator]: () => this.run(signal) };
  }

  /** Ends every subscription; later ones end at once. */
  close(): void {
    this.closed = true;
    for (const subscriber of this.subscribers) this.stop(subscriber);
  }

  private async *run(signal: AbortSignal): AsyncGenerator<readonly T[], void, undefined> {
    if (signal.aborted || this.closed) return;
    const subscriber: Subscriber<T> = { batches: [], wake: undefined, done: false };
    const stop = (): void => this.stop(subscriber);
    this.subscribers.add(subscriber);
    signal.addEventListener('abort', stop, { once: true });
    try {
      yield [];
      for (;;) {
        const batch = subscriber.batches.shift();
        if (batch !== undefined) yield batch;
        else if (subscriber.done) return;
        else await new Promise<void>((resolve) => (subscriber.wake = resolve));
      }
    } finally {
      signal.removeEventListener('abort', stop);
      stop();
    }
  }

  private stop(subscriber: Subscriber<T>): void {
    subscriber.done = true;
    subscriber.batches = [];
    this.subscribers.delete(subscriber);
    wake(subscriber);
  }
}

function wake<T>(subscriber: Subscriber<T>): void {
  const resolve = subscriber.wake;
  subscriber.wake = undefined;
  resolve?.();
}
