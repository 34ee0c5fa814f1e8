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

  const tryApply = (change: WindowChange): ApplyResult => {
    const error = checkContiguous(change.events);
    if (error !== undefined) return { ok: false, error, snapshot };
    const empty = fold.events.length === 0;
    switch (change.kind) {
      case 'replace':
        snapshot = rebuild(change.events);
        break;
      case 'prepend': {
        const last = change.events.at(-1);
        if (last === undefined) break;
        if (!empty && last.seq + 1 !== fold.firstSeq) {
          const message =
            `a prepend must end right before the window's first seq ${fold.firstSeq}, ` +
            `but its last seq is ${last.seq}: request the page that ends at ${fold.firstSeq}`;
          return { ok: false, error: { code: 'not-adjacent', message }, snapshot };
        }
        snapshot = rebuild([...change.events, ...fold.events]);
        break;
      }
      case 'append': {
        const end = fold.endSeq;
        const fresh = empty ? change.events : change.events.filter((event) => event.seq >= end);
        const first = fresh[0];
        if (first === undefined) break;
        if (!empty && first.seq !== end) {
          const message =
            `an append must start at the window's end seq ${end}, but starts at ${first.seq}: ` +
            `events ${end}..${first.seq - 1} are missing; replace the window to resync`;
          return { ok: false, error: { code: 'gap', message }, snapshot };
        }
        for (const event of fresh) fold.add(event);
        snapshot = fold.commit();
        break;
      }
      default: {
        const unhandled: never = change;
        return unhandled;
      }
    }
    return { ok: true, snapshot };
  };

  return {
    apply: (change) => tryApply(change).snapshot,
    tryApply,
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
