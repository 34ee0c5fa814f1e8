import { constants, open, type FileHandle } from 'node:fs/promises';
import { create } from '@bufbuild/protobuf';
import { timestampFromMs } from '@bufbuild/protobuf/wkt';
import { SessionEventSchema, type SessionEvent } from '@dsh/gen/events';
import type { ProjectionRegistry } from '../projections/index.js';
import { checkAppendTimes } from './check-append-times.js';
import { messageTypes } from './event-types.js';
import type { JournalHeader } from './journal-header.js';
import type { JournalIndex } from './journal-index.js';
import {
  checkEventHead,
  decodeEventLine,
  eventFromHead,
  eventType,
  encodeEventLine,
  maxSeq,
} from './journal-line.js';
import {
  JournalError,
  type AppendOptions,
  type EventPayload,
  type Journal,
  type JournalListener,
  type JournalPage,
  type ReadOptions,
} from './journal-types.js';
import { pageRange } from './page-range.js';
import type { ProjectionCheckpoints } from './projection-checkpoints.js';
import { scanJournal } from './scan-journal.js';
import { splitLines } from './scan-lines.js';

interface PendingAppend {
  readonly events: SessionEvent[];
  readonly lines: Buffer[];
  /** Time of its last event. */
  readonly lastTimeMs: number;
  readonly resolve: (events: SessionEvent[]) => void;
  readonly reject: (error: unknown) => void;
}

/** Where a journal file lives and how it may be used. */
export interface JournalFile {
  readonly path: string;
  readonly sessionId: string;
  readonly readOnly: boolean;
  readonly registry: ProjectionRegistry;
  /** Called after each durable append (the store turns it into an `updated` change). */
  readonly onAppend?: () => void;
}

/**
 * One open journal file. Appends are group-committed: every append issued before the
 * next write gets its seqs at call time and shares one write and one fdatasync on an
 * O_APPEND fd; only then are the index, projections and listeners advanced, so `length`
 * counts durable events and a listener never sees an event that is not on disk.
 */
export class FileJournal implements Journal {
  private readonly listeners = new Set<JournalListener>();
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | undefined;
  private nextSeq: number;
  private closed = false;

  private constructor(
    private readonly file: JournalFile,
    private readonly fd: FileHandle,
    readonly header: JournalHeader,
    private readonly index: JournalIndex,
    private readonly checkpoints: ProjectionCheckpoints,
    private lastTime: Date | undefined,
  ) {
    this.nextSeq = index.length;
  }

  /** Opens and scans a journal file; a torn tail is cut off when the file is writable. */
  static async open(file: JournalFile): Promise<FileJournal> {
    const flags = file.readOnly ? constants.O_RDONLY : constants.O_RDWR | constants.O_APPEND;
    const fd = await open(file.path, flags);
    try {
      const scanned = await scanJournal(fd, file.sessionId, file.registry);
      if (!scanned.ok) {
        const { line, reason } = scanned.failure;
        throw new JournalError('corrupt', `session ${file.sessionId}: line ${line}: ${reason}`, {
          sessionId: file.sessionId,
          line,
        });
      }
      const { header, index, checkpoints, lastTime, tornFrom } = scanned.value;
      if (tornFrom !== undefined && !file.readOnly) {
        await fd.truncate(tornFrom);
        await fd.datasync();
      }
      return new FileJournal(file, fd, header, index, checkpoints, lastTime);
    } catch (error) {
      await fd.close();
      throw error;
    }
  }

  get readOnly(): boolean {
    return this.file.readOnly;
  }

  get length(): number {
    return this.index.length;
  }

  get updatedAt(): Date {
    return this.lastTime ?? new Date(this.header.createdAt);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }

  append(payloads: readonly EventPayload[], options?: AppendOptions): Promise<SessionEvent[]> {
    const refused = this.readOnly
      ? `session ${this.file.sessionId} is read-only (a fixture or imported journal)`
      : this.closed
        ? `session ${this.file.sessionId} is closed`
        : undefined;
    if (refused !== undefined) return Promise.reject(new JournalError('read_only', refused));
    if (this.nextSeq + payloads.length - 1 > maxSeq) {
      return Promise.reject(
        new JournalError('invalid_argument', `session ${this.file.sessionId} is full (seq limit)`),
      );
    }
    const times = options?.times;
    const badTimes = times === undefined ? undefined : checkAppendTimes(times, payloads.length);
    if (badTimes !== undefined) {
      return Promise.reject(
        new JournalError(
          'invalid_argument',
          `append to session ${this.file.sessionId}: ${badTimes}`,
        ),
      );
    }
    if (payloads.length === 0) return Promise.resolve([]);
    const now = Date.now();
    const timesMs = payloads.map((_, i) => times?.[i]?.getTime() ?? now);
    const events = payloads.map((payload, i) =>
      create(SessionEventSchema, {
        seq: this.nextSeq++,
        time: timestampFromMs(timesMs[i]!),
        payload,
      }),
    );
    const lines = events.map((e) => Buffer.from(encodeEventLine(e) + '\n'));
    const lastTimeMs = timesMs.at(-1)!;
    return new Promise((resolve, reject) => {
      this.queue.push({ events, lines, lastTimeMs, resolve, reject });
      if (this.flushing === undefined) this.flushing = this.flush();
    });
  }

  async read(from: number, to: number, options?: ReadOptions): Promise<SessionEvent[]> {
    const length = this.index.length;
    if (!(
      Number.isInteger(from) &&
      Number.isInteger(to) &&
      0 <= from &&
      from <= to &&
      to <= length
    )) {
      throw new JournalError(
        'invalid_argument',
        `read(${from}, ${to}) is out of range for session ${this.file.sessionId}: use 0 <= from <= to <= ${length}`,
      );
    }
    if (options?.maxBytes !== undefined && from < to) {
      to = this.index.endWithin(from, to, options.maxBytes);
    }
    const lines = await this.readLines(from, to);
    return lines.map((line, i) => {
      const decoded = decodeEventLine(line, from + i);
      if (!decoded.ok) throw this.corrupt(from + i, decoded.error);
      return decoded.value;
    });
  }

  async page(beforeSeq: number | undefined, maxMessages: number): Promise<JournalPage> {
    const range = pageRange(this.index, this.index.length, beforeSeq, maxMessages);
    if (!range.ok) {
      throw new JournalError('invalid_argument', `session ${this.file.sessionId}: ${range.error}`);
    }
    const { start, end } = range.value;
    const [events, baseline] = await Promise.all([
      this.read(start, end),
      beforeSeq === undefined ? this.baselineAt(start) : undefined,
    ]);
    return { events, hasMore: start > 0, baseline };
  }

  subscribe(listener: JournalListener): () => void {
    // A wrapper, so the same function subscribed twice gets two independent registrations.
    const entry: JournalListener = (events) => listener(events);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  /** Waits for pending appends, then closes the file; later appends are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    await this.fd.close();
  }

  private async baselineAt(seq: number) {
    const checkpoint = this.checkpoints.checkpointFor(seq);
    const { registry } = this.file;
    let states = checkpoint.states;
    const lines = await this.readLines(checkpoint.seq, seq);
    lines.forEach((line, i) => {
      const at = checkpoint.seq + i;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        throw this.corrupt(at, (error as Error).message);
      }
      const head = checkEventHead(parsed, at);
      if (!head.ok) throw this.corrupt(at, head.error);
      const reads = registry.reads.get(head.value.type);
      if (reads !== undefined) states = registry.fold(states, eventFromHead(head.value, reads));
    });
    return registry.baseline(states, seq);
  }

  private async readLines(from: number, to: number): Promise<string[]> {
    if (from === to) return [];
    const [start, end] = this.index.byteRange(from, to);
    const buffer = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < buffer.length) {
      const { bytesRead } = await this.fd.read(buffer, done, buffer.length - done, start + done);
      if (bytesRead === 0) throw this.corrupt(from, 'the file is shorter than its index');
      done += bytesRead;
    }
    return splitLines(buffer);
  }

  private async flush(): Promise<void> {
    // Let every append of this tick join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      const durableEnd = this.index.end;
      try {
        const data = Buffer.concat(batch.flatMap((p) => p.lines));
        let written = 0;
        while (written < data.length) {
          written += (await this.fd.write(data, written, data.length - written)).bytesWritten;
        }
        await this.fd.datasync();
      } catch (error) {
        await this.abandon([...batch, ...this.queue], durableEnd, error);
        continue;
      }
      this.commit(batch);
    }
    this.flushing = undefined;
  }

  private commit(batch: PendingAppend[]): void {
    const { reads } = this.file.registry;
    for (const pending of batch) {
      pending.events.forEach((event, i) => {
        const type = eventType(event);
        this.index.push(pending.lines[i]!.length, messageTypes.has(type));
        this.checkpoints.advance(reads.has(type) ? event : undefined);
      });
    }
    this.lastTime = new Date(batch.at(-1)!.lastTimeMs);
    const events = batch.flatMap((p) => p.events);
    for (const listener of this.listeners) {
      try {
        listener(events);
      } catch (error) {
        console.error(`dsh: a journal listener of session ${this.file.sessionId} threw`, error);
      }
    }
    for (const pending of batch) pending.resolve(pending.events);
    this.file.onAppend?.();
  }

  /** A failed write: cut any partial bytes, fail every queued append, reuse their seqs. */
  private async abandon(failed: PendingAppend[], durableEnd: number, error: unknown) {
    this.queue = [];
    this.nextSeq = this.index.length;
    try {
      await this.fd.truncate(durableEnd);
    } catch {
      this.closed = true; // The file may hold a partial line: refuse further appends.
    }
    for (const pending of failed) pending.reject(error);
  }

  private corrupt(seq: number, reason: string): JournalError {
    const line = seq + 2;
    return new JournalError('corrupt', `session ${this.file.sessionId}: line ${line}: ${reason}`, {
      sessionId: this.file.sessionId,
      line,
    });
  }
}
