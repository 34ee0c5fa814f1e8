import type { SessionEvent } from '@dsh/gen/events';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import { followLog } from './follow-log.js';
import { LiveWindow } from './live-window.js';
import type { JournalHead, JournalLog, JournalSummary } from './journal-backend.js';
import type { JournalHeader } from './journal-header.js';
import {
  JournalError,
  type AppendOptions,
  type EventPayload,
  type FollowOptions,
  type Journal,
  type JournalFollow,
  type JournalPage,
  type ReadOptions,
} from './journal-types.js';
import { PageMemo, chunkMemo } from './page-memo.js';
import type { ProjectionRegistry } from './projections/index.js';
import { readPage } from './read-page.js';

/**
 * The `Journal` over one backend log. It names the seq each append expects: the end it
 * knows plus the appends it has in flight, so appends issued together get contiguous
 * seqs in call order and a backend can commit them together. A failed append frees its
 * seqs (the cursor goes back to the lowest failed seq); an append that conflicted only
 * because an earlier one of its own failed meanwhile is sent again at the new end.
 */
export class LogJournal implements Journal {
  private known: JournalHead;
  /** The seq the next append expects. */
  private cursor: number;
  /** Bumped whenever the cursor goes back, so a conflict can tell it was self-made. */
  private epoch = 0;
  private inFlight = 0;
  /** The live events this journal's follows share (a new one once its tail closed). */
  private live: LiveWindow;

  constructor(
    private readonly log: JournalLog,
    private readonly registry: ProjectionRegistry,
    head: JournalHead,
    /** The store's summary of this session (a catalog's); the header's facts without one. */
    private readonly summarize?: () => Promise<JournalSummary | undefined>,
    /** The store's recently read pages, shared by requests for the same page. */
    private readonly pages = new PageMemo({ pages: 1, bytes: 4 << 20 }),
    /** The store's recent catch-up reads of follow streams, shared the same way. */
    private readonly chunks = chunkMemo({ pages: 4, bytes: 4 << 20 }),
  ) {
    this.known = head;
    this.cursor = head.length;
    this.live = new LiveWindow(log);
  }

  get header(): JournalHeader {
    return this.log.header;
  }

  get readOnly(): boolean {
    return this.log.readOnly;
  }

  get length(): number {
    return this.known.length;
  }

  get updatedAt(): Date {
    return this.known.updatedAt;
  }

  get tailCount(): number {
    // With no follow open, a tail the log still holds is one the window failed to close.
    return this.live.count > 0 ? this.live.count : this.log.tailCount;
  }

  async head(): Promise<JournalHead> {
    const head = await this.log.head();
    if (head.length >= this.known.length) this.known = head;
    if (this.inFlight === 0 && this.cursor < head.length) this.cursor = head.length;
    return head;
  }

  async summary(): Promise<JournalSummary> {
    const { length, updatedAt } = await this.head();
    const kept = await this.summarize?.();
    if (kept !== undefined && kept.length >= length) return kept;
    if (kept !== undefined) return { ...kept, length, updatedAt };
    const { header, readOnly } = this;
    return {
      header,
      readOnly,
      length,
      updatedAt,
      error: undefined,
      title: header.title,
      model: header.model,
    };
  }

  append(payloads: readonly EventPayload[], options?: AppendOptions): Promise<SessionEvent[]> {
    const epoch = this.epoch;
    const expectedSeq = this.cursor;
    this.cursor += payloads.length;
    this.inFlight += 1;
    return this.log.append(payloads, { ...options, expectedSeq }).then(
      (events) => {
        this.inFlight -= 1;
        this.noteDurable(events);
        return events;
      },
      (error: unknown) => {
        this.inFlight -= 1;
        const lowered = this.epoch !== epoch;
        if (this.cursor > expectedSeq) {
          this.cursor = expectedSeq;
          this.epoch += 1;
        }
        if (error instanceof JournalError && error.kind === 'conflict') {
          // A conflict with the end an own failed append left is no other writer's doing.
          if (lowered) return this.append(payloads, options);
          void this.head().catch(() => undefined);
        }
        throw error;
      },
    );
  }

  read(from: number, to: number, options?: ReadOptions): Promise<SessionEvent[]> {
    return this.log.read(from, to, options);
  }

  async page(beforeSeq: number | undefined, maxMessages: number): Promise<JournalPage> {
    const { length } = await this.head();
    const key = `${this.header.sessionId}:${beforeSeq ?? 'tail'}:${maxMessages}`;
    return this.pages.get(key, length, () =>
      readPage(this.log, this.registry, length, beforeSeq, maxMessages),
    );
  }

  follow(from: number, options: FollowOptions): Promise<JournalFollow> {
    if (this.live.done || this.live.ended !== undefined) this.live = new LiveWindow(this.log);
    // Followers catching up over the same chunks share one read and its events (whose
    // wire encodings are then built once for all of them).
    return followLog(this.log, this.live, from, options, (start, end, { maxBytes }) =>
      this.chunks.get(`${this.header.sessionId}:${start}:${end}:${maxBytes}`, () =>
        this.log.read(start, end, { maxBytes }),
      ),
    );
  }

  private noteDurable(events: readonly SessionEvent[]): void {
    const last = events.at(-1);
    if (last === undefined || last.seq < this.known.length) return;
    this.known = { length: last.seq + 1, updatedAt: new Date(timestampMs(last.time!)) };
  }
}
