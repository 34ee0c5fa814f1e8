import { lineLength } from './event-line-bytes.js';
import type { SessionEvent } from '@dsh/gen/events';
import type { JournalPage } from './journal-types.js';

/** What a memo keeps at most: whichever bound is reached first. */
export interface PageMemoLimits {
  /** Entries (pages, or read chunks). */
  readonly pages: number;
  /** Journal line bytes of the kept events (an event of unknown size counts 64 KiB). */
  readonly bytes: number;
}

/** What an event whose line length is unknown counts as. */
const unknownLineBytes = 64 * 1024;

/**
 * The most recently read results of a store's journals by name, shared by every request
 * for the same name: a crowd opening a session at once (a link passed around, clients
 * reconnecting after a host restart) costs one read and one decode instead of one each.
 * Journals are append-only, so a name that says what was read (and, for a page, at which
 * length) names the result for good. A read in flight is shared too; a failed one is
 * forgotten at once. One memo serves a whole store, so what it holds stays within its
 * limits however many sessions have been read. Each caller gets `copy` of the result
 * (its own page array; the same read-only chunk); the events are shared and never
 * changed.
 */
export class ReadMemo<T> {
  /** Least recently used first; `bytes` is undefined while the read is in flight. */
  private readonly reads = new Map<string, { value: Promise<T>; bytes?: number }>();
  private bytes = 0;

  constructor(
    private readonly limits: PageMemoLimits,
    private readonly eventsOf: (value: T) => readonly SessionEvent[],
    private readonly copy: (value: T) => T,
  ) {}

  /** The result named `name`, from `read` unless it is remembered. */
  get(name: string, read: () => Promise<T>): Promise<T> {
    let entry = this.reads.get(name);
    if (entry === undefined) {
      const kept: { value: Promise<T>; bytes?: number } = { value: read() };
      entry = kept;
      kept.value.then(
        (value) => {
          if (this.reads.get(name) !== kept) return;
          kept.bytes = eventBytes(this.eventsOf(value));
          this.bytes += kept.bytes;
          this.trim();
        },
        () => {
          if (this.reads.get(name) === kept) this.reads.delete(name);
        },
      );
    } else {
      this.reads.delete(name);
    }
    this.reads.set(name, entry);
    this.trim();
    return entry.value.then(this.copy);
  }

  /** Drops the least recently used results until both limits hold. */
  private trim(): void {
    for (const [name, entry] of this.reads) {
      if (this.reads.size <= this.limits.pages && this.bytes <= this.limits.bytes) return;
      this.reads.delete(name);
      this.bytes -= entry.bytes ?? 0;
    }
  }
}

/** Pages by session, request and the journal length they were read at (`ReadMemo`). */
export class PageMemo {
  private readonly memo: ReadMemo<JournalPage>;

  constructor(limits: PageMemoLimits) {
    this.memo = new ReadMemo(limits, (page) => page.events, copyPage);
  }

  /** The page for `key` read at `length`, from `read` unless it is remembered. */
  get(key: string, length: number, read: () => Promise<JournalPage>): Promise<JournalPage> {
    return this.memo.get(`${length}:${key}`, read);
  }
}

/**
 * Catch-up chunks of follow streams by session and range (`ReadMemo`). Every follower
 * gets the same read-only array, so a server can build the chunk's frames once for all
 * of them.
 */
export const chunkMemo = (limits: PageMemoLimits): ReadMemo<readonly SessionEvent[]> =>
  new ReadMemo<readonly SessionEvent[]>(
    limits,
    (events) => events,
    (events) => events,
  );

const copyPage = (page: JournalPage): JournalPage => ({ ...page, events: page.events.slice() });

function eventBytes(events: readonly SessionEvent[]): number {
  let bytes = 0;
  for (const event of events) bytes += lineLength(event) ?? unknownLineBytes;
  return bytes;
}
