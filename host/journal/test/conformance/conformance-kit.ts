import {
  assistantMessage,
  chunk,
  toolCall,
  toolResult,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import type { SessionEvent } from '@dsh/gen/events';
import type { JournalBackend, JournalLog } from '../../src/index.js';
import { JournalError, messageTypes, eventType } from '../../src/index.js';

/** One test's storage, as a backend factory hands it to the conformance suite. */
export interface BackendUnderTest {
  /**
   * Opens a backend over this test's storage: empty on the first call, the same
   * sessions on later ones (a host restart, or with `sharedWriters` a second host).
   */
  open(): Promise<JournalBackend>;
  /** Closes what `open` opened and removes the storage. */
  destroy(): Promise<void>;
}

/** What a backend under test can do beyond the interface's common ground. */
export interface BackendCapabilities {
  /**
   * Two backends open on one storage at once may both append (several hosts on one
   * database); the file backend allows one writer per data dir (its lock), so it says no.
   */
  readonly sharedWriters: boolean;
}

/** Makes a fresh, empty storage for one test. */
export type JournalBackendFactory = () => Promise<BackendUnderTest>;

/**
 * A deterministic conversation of `turns` turns: a user message, t % 3 stream chunks, an
 * assistant message with usage, and every other turn a `todo_write` call and result
 * (every fourth fails), so pages, baselines and checkpoints all have work to do.
 */
export function conversation(turns: number, from = 1): Payload[] {
  const out: Payload[] = [];
  for (let t = from; t < from + turns; t += 1) {
    out.push(userMessage(`question ${t}`));
    for (let c = 0; c < t % 3; c += 1) {
      out.push(
        chunk(
          { turn: t },
          {
            case: 'textDelta',
            value: { $typeName: 'dsh.session.v1.TextDelta', index: 0, text: `part ${c}` },
          },
        ),
      );
    }
    out.push(assistantMessage({ turn: t }, [`answer ${t}`], usage(t, 2 * t)));
    if (t % 2 === 0) {
      const id = `call-${t}`;
      const todos = [{ content: `task ${t}`, status: 'in_progress' }];
      out.push(toolCall(id, 'todo_write', { todos }, { turn: t }));
      out.push(
        t % 8 === 0
          ? toolResult(id, 'failed', { error: { code: 'boom', message: 'no' }, turn: t })
          : toolResult(id, 'ok', { turn: t }),
      );
    }
  }
  return out;
}

/** Appends `payloads` at the log's end in batches of `batch`, returning every event. */
export async function appendAll(
  log: JournalLog,
  payloads: readonly Payload[],
  batch = 100,
): Promise<SessionEvent[]> {
  const all: SessionEvent[] = [];
  for (let i = 0; i < payloads.length; i += batch) {
    const { length } = await log.head();
    all.push(...(await log.append(payloads.slice(i, i + batch), { expectedSeq: length })));
  }
  return all;
}

/** Seqs of the message events in `list`. */
export function messageSeqs(list: readonly SessionEvent[]): number[] {
  return list.filter((e) => messageTypes.has(eventType(e))).map((e) => e.seq);
}

/** The JournalError kind a promise rejects with ('resolved' when it does not reject). */
export async function errorKind(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof JournalError ? error.kind : `not a JournalError: ${String(error)}`;
  }
}

/** The next batch of a live iterator that holds events, skipping empty ones. */
export async function nextEvents<T>(it: AsyncIterator<readonly T[]>): Promise<readonly T[]> {
  for (;;) {
    const next = await it.next();
    if (next.done === true) throw new Error('the live iterable ended');
    if (next.value.length > 0) return next.value;
  }
}

/** Collects batches of `it` until `count` items came. */
export async function collect<T>(it: AsyncIterator<readonly T[]>, count: number): Promise<T[]> {
  const items: T[] = [];
  while (items.length < count) items.push(...(await nextEvents(it)));
  return items;
}
