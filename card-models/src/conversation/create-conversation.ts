import type { SessionEvent } from '@dsh/gen/events';
import { ConversationFold } from './conversation-fold.js';
import type { ConversationSnapshot, WindowChange } from './types.js';

/** Why a window change was rejected; the window is left as it was. */
export interface WindowError {
  /**
   * `not-contiguous`: the events' seqs are not consecutive integers;
   * `not-adjacent`: a prepend does not end right before the window's first seq;
   * `gap`: an append starts after the window's end seq.
   */
  readonly code: 'not-contiguous' | 'not-adjacent' | 'gap';
  readonly message: string;
}

/** The outcome of `tryApply`: the new snapshot, or the reason the change was rejected. */
export type ApplyResult =
  | { readonly ok: true; readonly snapshot: ConversationSnapshot }
  | { readonly ok: false; readonly error: WindowError; readonly snapshot: ConversationSnapshot };

/** A conversation window and its current snapshot. */
export interface Conversation {
  /** Applies a change; a rejected change leaves the window and returns the current snapshot. */
  apply(change: WindowChange): ConversationSnapshot;
  /** Applies a change and says why it was rejected, if it was. */
  tryApply(change: WindowChange): ApplyResult;
  /** The snapshot after the last accepted change. */
  readonly snapshot: ConversationSnapshot;
}

/**
 * Creates an empty conversation window. `replace` and `prepend` refold the whole window
 * (identities of unchanged nodes and blocks are kept); `append` folds only the new events
 * (amortised O(1) per event). Events below the window's end seq are skipped on append.
 */
export function createConversation(): Conversation {
  let fold = new ConversationFold();
  let snapshot = fold.commit();

  const rebuild = (events: readonly SessionEvent[]): ConversationSnapshot => {
    const fresh = new ConversationFold();
    for (const event of events) fresh.add(event);
    const next = fresh.commit(fold.pool());
    fold = fresh;
    return next;
  };

  /** Applies `change` to the window; the error when it is rejected. */
  const change = (next: WindowChange): WindowError | undefined => {
    const error = checkContiguous(next.events);
    if (error !== undefined) return error;
    const empty = fold.events.length === 0;
    switch (next.kind) {
      case 'replace':
        snapshot = rebuild(next.events);
        return undefined;
      case 'prepend': {
        const last = next.events.at(-1);
        if (last === undefined) return undefined;
        if (!empty && last.seq + 1 !== fold.firstSeq) {
          const message =
            `a prepend must end right before the window's first seq ${fold.firstSeq}, ` +
            `but its last seq is ${last.seq}: request the page that ends at ${fold.firstSeq}`;
          return { code: 'not-adjacent', message };
        }
        snapshot = rebuild([...next.events, ...fold.events]);
        return undefined;
      }
      case 'append': {
        const list = next.events;
        const first = list[0];
        if (first === undefined) return undefined;
        // The events are contiguous, so the ones already in the window are a prefix.
        const end = fold.endSeq;
        const skip = empty ? 0 : Math.max(0, end - first.seq);
        if (skip >= list.length) return undefined;
        if (!empty && first.seq > end) {
          const message =
            `an append must start at the window's end seq ${end}, but starts at ${first.seq}: ` +
            `events ${end}..${first.seq - 1} are missing; replace the window to resync`;
          return { code: 'gap', message };
        }
        for (let i = skip; i < list.length; i++) fold.add(list[i] as SessionEvent);
        snapshot = fold.commit();
        return undefined;
      }
      default: {
        const unhandled: never = next;
        return unhandled;
      }
    }
  };

  return {
    apply: (next) => {
      change(next);
      return snapshot;
    },
    tryApply: (next) => {
      const error = change(next);
      return error === undefined ? { ok: true, snapshot } : { ok: false, error, snapshot };
    },
    get snapshot() {
      return snapshot;
    },
  };
}

function checkContiguous(events: readonly SessionEvent[]): WindowError | undefined {
  const first = events[0];
  if (first !== undefined && !(Number.isInteger(first.seq) && first.seq >= 0)) {
    const message = `event seqs must be non-negative integers, got ${first.seq}`;
    return { code: 'not-contiguous', message };
  }
  for (let i = 1; i < events.length; i++) {
    const previous = events[i - 1]?.seq ?? 0;
    const seq = events[i]?.seq;
    if (seq !== previous + 1) {
      const message =
        `events must have consecutive seqs, but seq ${seq} follows ${previous} ` +
        `at index ${i}: send one contiguous range per change`;
      return { code: 'not-contiguous', message };
    }
  }
  return undefined;
}
