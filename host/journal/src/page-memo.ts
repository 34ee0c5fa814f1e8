import { lineLength } from './event-line-bytes.js';
import type { JournalPage } from './journal-types.js';

/** What a `PageMemo` keeps at most: whichever bound is reached first. */
export interface PageMemoLimits {
  readonly pages: number;
  /** Journal line bytes of the kept pages' events (an event of unknown size counts 64 KiB). */
  readonly bytes: number;
}

/** What an event whose line length is unknown counts as. */
const unknownLineBytes = 64 * 1024;

/**
 * The most recently read pages of a store's journals, shared by every request for the
 * same page while its journal has the same length: a crowd opening a session at once (a
 * link passed around, clients reconnecting after a host restart) costs one read and one
 * decode instead of one each. Journals are append-only, so a page is fully named by its
 * session, its request and the length it was read at. A read in flight is shared too; a
 * failed one is forgotten at once. One memo serves a whole store, so what it holds stays
 * within its limits however many sessions have been read.
 */
export class PageMemo {
  /** Least recently used first; `bytes` is undefined while the read is in flight. */
  private readonly pages = new Map<string, { page: Promise<JournalPage>; bytes?: number }>();
  private bytes = 0;

  constructor(private readonly limits: PageMemoLimits) {}

  /** The page for `key` read at `length`, from `read` unless it is remembered. */
  get(key: string, length: number, read: () => Promise<JournalPage>): Promise<JournalPage> {
    const name = `${length}:${key}`;
    let entry = this.pages.get(name);
    if (entry === undefined) {
      const kept: { page: Promise<JournalPage>; bytes?: number } = { page: read() };
      entry = kept;
      kept.page.then(
        (page) => {
          if (this.pages.get(name) !== kept) return;
          kept.bytes = pageBytes(page);
          this.bytes += kept.bytes;
          this.trim();
        },
        () => {
          if (this.pages.get(name) === kept) this.pages.delete(name);
        },
      );
    } else {
      this.pages.delete(name);
    }
    this.pages.set(name, entry);
    this.trim();
    // Each caller gets its own array: the events are shared and never changed.
    return entry.page.then((p) => ({ ...p, events: p.events.slice() }));
  }

  /** Drops the least recently used pages until both limits hold. */
  private trim(): void {
    for (const [name, entry] of this.pages) {
      if (this.pages.size <= this.limits.pages && this.bytes <= this.limits.bytes) return;
      this.pages.delete(name);
      this.bytes -= entry.bytes ?? 0;
    }
  }
}

function pageBytes(page: JournalPage): number {
  let bytes = 0;
  for (const event of page.events) bytes += lineLength(event) ?? unknownLineBytes;
  return bytes;
}
