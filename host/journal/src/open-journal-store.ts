import type { JournalBackend, JournalLog, JournalSummary, StoreChange } from './journal-backend.js';
import type { CreateJournal, Journal, JournalPage, JournalStore } from './journal-types.js';
import { checkPageRequest } from './page-range.js';
import { LogJournal } from './log-journal.js';
import { PageMemo, chunkMemo } from './page-memo.js';

/** Options of `openJournalStore`. */
export interface OpenJournalStoreOptions {
  /**
   * Runs once on each writable journal the first time this store opens it, before any
   * caller gets it: a serving host closes there the turn a stopped host left open. A
   * failure (disk full) is logged and the journal is served as it is.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
}

/**
 * The `JournalStore` over a backend: one `Journal` per session, opened once (concurrent
 * opens share it) and kept open, with the page cut, the baseline and follow written
 * here once for every backend.
 */
export function openJournalStore(
  backend: JournalBackend,
  options: OpenJournalStoreOptions = {},
): JournalStore {
  return new BackendJournalStore(backend, options.onFirstOpen);
}

class BackendJournalStore implements JournalStore {
  private readonly opened = new Map<string, Journal>();
  private readonly opening = new Map<string, Promise<Journal>>();
  /** Pages read lately, across sessions (`PageMemo`). */
  private readonly pages = new PageMemo({ pages: 16, bytes: 16 << 20 });
  /** Catch-up reads of follow streams lately, across sessions (32 chunks, 8 MiB of lines). */
  private readonly chunks = chunkMemo({ pages: 32, bytes: 8 << 20 });

  constructor(
    private readonly backend: JournalBackend,
    private readonly onFirstOpen: OpenJournalStoreOptions['onFirstOpen'],
  ) {}

  get location(): string {
    return this.backend.location;
  }

  list(): Promise<JournalSummary[]> {
    return this.backend.list();
  }

  summary(sessionId: string): Promise<JournalSummary | undefined> {
    return this.backend.summary(sessionId);
  }

  async remove(sessionId: string): Promise<string> {
    await this.opening.get(sessionId)?.catch(() => undefined);
    const where = await this.backend.remove(sessionId);
    this.opened.delete(sessionId);
    return where;
  }

  async open(sessionId: string): Promise<Journal> {
    return (
      this.opened.get(sessionId) ??
      this.opening.get(sessionId) ??
      this.adopt(sessionId, this.backend.open(sessionId))
    );
  }

  async page(
    sessionId: string,
    beforeSeq: number | undefined,
    maxMessages: number,
  ): Promise<JournalPage> {
    const known = this.opened.get(sessionId);
    if (known !== undefined) return known.page(beforeSeq, maxMessages);
    const opening = this.open(sessionId);
    const request = checkPageRequest(sessionId, 0, beforeSeq, maxMessages);
    if (beforeSeq === undefined && request.ok && this.backend.tailWhileOpening !== undefined) {
      // The open goes on in the background; a failure reaches this call or the next one.
      opening.catch(() => undefined);
      const early = await this.backend.tailWhileOpening(sessionId, request.value.size);
      if (early !== undefined) return early;
    }
    return (await opening).page(beforeSeq, maxMessages);
  }

  async create(init: CreateJournal): Promise<Journal> {
    const log = await this.backend.create(init);
    return this.adopt(log.header.sessionId, Promise.resolve(log));
  }

  watch(options: { readonly signal: AbortSignal }): AsyncIterable<readonly StoreChange[]> {
    return this.backend.watch(options);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.opening.values()]);
    this.opened.clear();
    await this.backend.close();
  }

  /** The journal of a log, made (and recovered) once however many callers ask at once. */
  private adopt(sessionId: string, opening: Promise<JournalLog>): Promise<Journal> {
    const known = this.opened.get(sessionId) ?? this.opening.get(sessionId);
    if (known !== undefined) return Promise.resolve(known);
    const pending = opening
      .then(async (log) => {
        const journal = new LogJournal(
          log,
          this.backend.projections,
          await log.head(),
          () => this.backend.summary(sessionId),
          this.pages,
          this.chunks,
        );
        if (!journal.readOnly && this.onFirstOpen !== undefined) {
          await this.onFirstOpen(journal).catch((error: unknown) => {
            console.error(`dsh: session ${sessionId}: cannot recover it on open:`, error);
          });
        }
        this.opened.set(sessionId, journal);
        return journal;
      })
      .finally(() => this.opening.delete(sessionId));
    this.opening.set(sessionId, pending);
    return pending;
  }
}
