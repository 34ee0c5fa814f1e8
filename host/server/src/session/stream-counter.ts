/** The kinds of long-lived server streams the host counts. */
export type StreamKind = 'follow' | 'watch';

/**
 * Counts the Follow and WatchSessions streams that still hold a listener, so leak
 * tests and soak runs can check that every stream released everything. In-process
 * only: never sent on the wire.
 */
export interface StreamCounter {
  opened(kind: StreamKind): void;
  closed(kind: StreamKind): void;
  /** Streams of each kind whose resources are still held. */
  readonly open: Readonly<Record<StreamKind, number>>;
}

/** Creates a counter starting at zero. */
export function createStreamCounter(): StreamCounter {
  const open: Record<StreamKind, number> = { follow: 0, watch: 0 };
  return {
    opened: (kind) => void (open[kind] += 1),
    closed: (kind) => void (open[kind] -= 1),
    open,
  };
}
