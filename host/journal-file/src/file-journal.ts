import { constants, open, type FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import { timestampMs } from '@bufbuild/protobuf/wkt';
import type { SessionEvent } from '@dsh/gen/events';
import {
  type ProjectionRegistry,
  messageTypes,
  type JournalHeader,
  checkEventHead,
  decodeEventLine,
  eventFromHead,
  eventType,
  JournalError,
  type EventPayload,
  type JournalHead,
  type JournalLog,
  LiveFeed,
  type LiveOptions,
  type LogAppendOptions,
  type LogReadOptions,
  type MessageStartsQuery,
  oversizedLineEvent,
  prepareAppend,
  type PreparedAppend,
  type ProjectionCheckpoint,
  type ProjectionCheckpoints,
} from '@dsh/journal';
import { ioError, isReadOnlyError } from './io-error.js';
import { indexBlockSize, type JournalIndex } from './journal-index.js';
import { openIndexWriter, type IndexWriter } from './index-writer.js';
import { indexPath, type IndexSource, loadIndex } from './persisted-index.js';
import { loadEarlierBlocks } from './load-earlier-blocks.js';
import { RecentEvents } from './recent-events.js';
import { scanJournal } from './scan-journal.js';
import { splitLines } from './scan-lines.js';

interface PendingAppend extends PreparedAppend {
  readonly resolve: (events: SessionEvent[]) => void;
  readonly reject: (error: unknown) => void;
}

/** Where a journal file lives and how it may be used. */
export interface JournalFile {
  readonly path: string;
  readonly sessionId: string;
  readonly readOnly: boolean;
  readonly registry: ProjectionRegistry;
  /**
   * Called after each durable append with its events and the file's new end (the store
   * turns it into an `updated` change and its catalog folds the events).
   */
  readonly onAppend?: (events: readonly SessionEvent[], end: number) => void;
  /** Keep the index in `<id>.idx` beside a writable journal (default true). */
  readonly persistIndex?: boolean;
  /** Where a line about the index (rebuilt, damaged, stale) goes. */
  readonly log?: (line: string) => void;
  /**
   * Called when the open must scan more than `longScanBytes` of the journal (no usable
   * index, or one far behind), before it starts: a tail page can be read meanwhile.
   */
  readonly onLongScan?: () => void;
  /** Journal bytes past the index above which a scan counts as long (default 8 MiB). */
  readonly longScanBytes?: number;
}

/** Journal bytes an open scans before it counts as long (about 25,000 events). */
export const defaultLongScanBytes = 8 << 20;

/**
 * One open journal file. Appends are group-committed: every append accepted before the
 * next write takes its seqs at call time (it must name the next free one) and shares one
 * write and one fdatasync on an O_APPEND fd; only then are the index, projections and
 * tails advanced, so `head()` counts durable events and a tail never sees an event that
 * is not on disk.
 */
export class FileJournal implements JournalLog {
  private readonly tails = new LiveFeed<SessionEvent>();
  /** What followers catching up near the end read: 1,024 events or 4 MiB of lines at most. */
  private readonly recent = new RecentEvents({ events: 1_024, bytes: 4 << 20 });
  private queue: PendingAppend[] = [];
  private flushing: Promise<void> | undefined;
  private nextSeq: number;
  private closed = false;
  /** Set when a failed write may have left bytes past the last durable line. */
  private dirty = false;
  /** True from a `turn/start` appended here to its `turn/end`: a turn is running. */
  private turnOpen = false;
  /** The index blocks before `index.base` being read back (one reading at a time). */
  private loading: Promise<void> | undefined;

  private constructor(
    private readonly file: JournalFile,
    private readonly fd: FileHandle,
    readonly header: JournalHeader,
    private readonly index: JournalIndex,
    private readonly checkpoints: ProjectionCheckpoints,
    private lastTime: Date | undefined,
    /** Why appends are refused although the session is not a fixture (a read-only disk). */
    private readonly refusal: string | undefined,
    private readonly writer: IndexWriter | undefined,
    /** Where the index blocks before `index.base` are read from. */
    private readonly source: IndexSource | undefined,
  ) {
    this.nextSeq = index.length;
    this.recent.clear(index.length);
  }

  /**
   * Opens and scans a journal file; a torn tail is cut off when the file is writable. A
   * writable file that refuses writes (read-only file system or file) is opened
   * read-only instead: it serves reads, and appends fail with `read_only` naming why.
   */
  static async open(file: JournalFile): Promise<FileJournal> {
    const fail = (error: unknown) =>
      ioError(error, {
        action: `session ${file.sessionId}: cannot open ${file.path}`,
        path: file.path,
        dataDir: dirname(file.path),
      });
    let fd: FileHandle;
    let refusal: string | undefined;
    if (file.readOnly) fd = await open(file.path, constants.O_RDONLY).catch(rethrow(fail));
    else {
      try {
        fd = await open(file.path, constants.O_RDWR | constants.O_APPEND);
      } catch (error) {
        if (!isReadOnlyError(error)) throw fail(error);
        refusal = fail(error).message;
        fd = await open(file.path, constants.O_RDONLY).catch(rethrow(fail));
      }
    }
    try {
      const persist = !file.readOnly && refusal === undefined && file.persistIndex !== false;
      const loaded = persist
        ? await loadIndex(indexPath(file.path), fd, file.sessionId, file.registry)
        : undefined;
      // The scan extends the restored index: count what the file held before it.
      const restoredBlocks = loaded?.restored?.index.blocks ?? 0;
      if (file.onLongScan !== undefined) {
        const unindexed = (await fd.stat()).size - (loaded?.restored?.index.end ?? 0);
        if (unindexed > (file.longScanBytes ?? defaultLongScanBytes)) file.onLongScan();
      }
      const scanned = await scanJournal(fd, file.sessionId, file.registry, loaded?.restored).catch(
        rethrow(fail),
      );
      if (!scanned.ok) {
        const { line, reason } = scanned.failure;
        throw new JournalError('corrupt', `session ${file.sessionId}: line ${line}: ${reason}`, {
          sessionId: file.sessionId,
          line,
        });
      }
      const { header, index, checkpoints, lastTime, tornFrom } = scanned.value;
      if (tornFrom !== undefined && !file.readOnly && refusal === undefined) {
        await fd.truncate(tornFrom).catch(rethrow(fail));
        await fd.datasync().catch(rethrow(fail));
      }
      const start = loaded?.restored?.start ?? index.byteRange(0, 0)[0];
      const writer =
        loaded && (await openIndexWriter(file, fd, loaded, restoredBlocks, scanned.value, start));
      writer?.update();
      const source = loaded?.restored?.source;
      return new FileJournal(
        file,
        fd,
        header,
        index,
        checkpoints,
        lastTime,
        refusal,
        writer,
        source,
      );
    } catch (error) {
      await fd.close();
      throw error;
    }
  }

  get readOnly(): boolean {
    return this.file.readOnly || this.refusal !== undefined;
  }

  head(): Promise<JournalHead> {
    return Promise.resolve(this.end);
  }

  /** The durable end, known in memory. */
  get end(): JournalHead {
    return {
      length: this.index.length,
      updatedAt: this.lastTime ?? new Date(this.header.createdAt),
    };
  }

  get tailCount(): number {
    return this.tails.count;
  }

  /** True when no append is waiting or being written and no turn appended here is running. */
  get idle(): boolean {
    return this.queue.length === 0 && this.flushing === undefined && !this.turnOpen;
  }

  /** Settles once the index writes queued so far are done (tests wait for it). */
  get indexWritten(): Promise<void> {
    return this.writer?.settled ?? Promise.resolve();
  }

  append(payloads: readonly EventPayload[], options: LogAppendOptions): Promise<SessionEvent[]> {
    const { sessionId } = this.file;
    const refused = this.file.readOnly
      ? `session ${sessionId} is read-only (a fixture or imported journal)`
      : this.refusal !== undefined
        ? `session ${sessionId} cannot be written: ${this.refusal}`
        : this.closed
          ? `session ${sessionId} is closed`
          : undefined;
    if (refused !== undefined) return Promise.reject(new JournalError('read_only', refused));
    if (options.expectedSeq !== this.nextSeq) {
      return Promise.reject(
        new JournalError(
          'conflict',
          `session ${sessionId}: an append expected seq ${options.expectedSeq} to be next, ` +
            `but the next seq is ${this.nextSeq}: another writer appended first; read the ` +
            'session again before appending',
        ),
      );
    }
    const prepared = prepareAppend(sessionId, this.nextSeq, payloads, options);
    if (!prepared.ok) return Promise.reject(prepared.error);
    if (payloads.length === 0) return Promise.resolve([]);
    this.nextSeq += payloads.length;
    return new Promise((resolve, reject) => {
      this.queue.push({ ...prepared.value, resolve, reject });
      this.flushing ??= this.flush();
    });
  }

  async read(from: number, to: number, options?: LogReadOptions): Promise<SessionEvent[]> {
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
    await this.loadFrom(from);
    if (options?.maxBytes !== undefined && from < to) {
      to = this.index.endWithin(from, to, options.maxBytes);
    }
    if (options?.fields !== 'projections') {
      const kept = this.recent.slice(from, to);
      if (kept !== undefined) return kept;
    }
    const lines = await this.readLines(from, to);
    if (options?.fields === 'projections') return this.projected(from, lines);
    return lines.map((line, i) => {
      const seq = from + i;
      if (line === undefined) return oversizedLineEvent(seq, this.index.oversized(seq)!);
      const decoded = decodeEventLine(line, seq);
      if (!decoded.ok) throw this.corrupt(seq, decoded.error);
      return decoded.value;
    });
  }

  async bytes(from: number, to: number): Promise<number> {
    await this.loadFrom(from);
    return this.index.servedBytes(from, to);
  }

  async messageStarts(query: MessageStartsQuery): Promise<number[]> {
    const before = Math.min(query.before, this.index.length);
    while (this.index.base > 0 && this.index.messagesBefore(before) < query.last) {
      await this.loadEarlier(1);
    }
    const k = this.index.messagesBefore(before);
    const starts: number[] = [];
    for (let i = Math.max(0, k - query.last); i < k; i += 1) starts.push(this.index.boundary(i));
    return starts;
  }

  async checkpoint(seq: number): Promise<ProjectionCheckpoint> {
    // The snapshot after block k is the k + 1-th: the block before `seq`'s must be loaded.
    await this.loadFrom(Math.max(0, Math.floor(seq / indexBlockSize) - 1) * indexBlockSize);
    return this.checkpoints.checkpointFor(seq);
  }

  /** Reads the index back from the block holding `seq` on (at once when already there). */
  private async loadFrom(seq: number): Promise<void> {
    while (this.index.base > seq) await this.loadEarlier(this.index.base - seq);
  }

  /** Reads more index blocks before `index.base` back (one reading at a time). */
  private loadEarlier(events: number): Promise<void> {
    const { file, fd, index, checkpoints, writer } = this;
    const source = this.source!;
    this.loading ??= loadEarlierBlocks(
      { file, fd, index, checkpoints, source, writer },
      events,
    ).finally(() => (this.loading = undefined));
    return this.loading;
  }

  tail(_from: number, options: LiveOptions): AsyncIterable<readonly SessionEvent[]> {
    // Every tail gets every committed batch; follow drops what lies below its seq.
    return this.tails.subscribe(options.signal);
  }

  /** Waits for pending appends, then closes the file and ends its tails; later appends are refused. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.flushing;
    this.tails.close();
    await this.writer?.close();
    await this.fd.close();
  }

  /**
   * The events of `lines` (from seq `from`) some projection reads, decoded in just those
   * fields; oversized lines feed no projection.
   */
  private projected(from: number, lines: readonly (string | undefined)[]): SessionEvent[] {
    const { registry } = this.file;
    const events: SessionEvent[] = [];
    lines.forEach((line, i) => {
      const at = from + i;
      if (line === undefined) return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch (error) {
        throw this.corrupt(at, (error as Error).message);
      }
      const head = checkEventHead(parsed, at);
      if (!head.ok) throw this.corrupt(at, head.error);
      const reads = registry.reads.get(head.value.type);
      if (reads !== undefined) events.push(eventFromHead(head.value, reads));
    });
    return events;
  }

  /** The lines of events [from, to); `undefined` stands for an oversized line, never read. */
  private async readLines(from: number, to: number): Promise<(string | undefined)[]> {
    const lines: (string | undefined)[] = [];
    let at = from;
    for (const seq of this.index.oversizedBetween(from, to)) {
      lines.push(...(await this.readRange(at, seq)), undefined);
      at = seq + 1;
    }
    lines.push(...(await this.readRange(at, to)));
    return lines;
  }

  /** The lines of events [from, to), none of them oversized, in one positional read. */
  private async readRange(from: number, to: number): Promise<string[]> {
    if (from === to) return [];
    const [start, end] = this.index.byteRange(from, to);
    const buffer = Buffer.allocUnsafe(end - start);
    let done = 0;
    while (done < buffer.length) {
      const { bytesRead } = await this.fd
        .read(buffer, done, buffer.length - done, start + done)
        .catch(rethrow((error) => this.ioError(error, 'cannot read')));
      if (bytesRead === 0) throw this.corrupt(from, 'the file is shorter than its index');
      done += bytesRead;
    }
    return splitLines(buffer);
  }

  /**
   * Writes the queued appends batch by batch. A failed write or fdatasync (disk full,
   * I/O error) cuts any partial bytes back to the last durable line, fails that batch
   * and every append queued behind it with a `JournalError`, and reuses their seqs; a
   * cut that fails too is retried before the next write, so nothing is ever written
   * after a partial line.
   */
  private async flush(): Promise<void> {
    // Let every append of this tick join the batch.
    await new Promise<void>((resolve) => setImmediate(resolve));
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        const durableEnd = this.index.end;
        try {
          if (this.dirty) await this.cutBack(durableEnd);
          const data = Buffer.concat(batch.flatMap((p) => p.lines));
          this.dirty = true;
          let written = 0;
          while (written < data.length) {
            written += (await this.fd.write(data, written, data.length - written)).bytesWritten;
          }
          await this.fd.datasync();
          this.dirty = false;
        } catch (error) {
          await this.abandon([...batch, ...this.queue], durableEnd, error);
          continue;
        }
        this.commit(batch);
      }
    } finally {
      this.flushing = undefined;
    }
  }

  private commit(batch: PendingAppend[]): void {
    const { reads } = this.file.registry;
    for (const pending of batch) {
      pending.events.forEach((event, i) => {
        const type = eventType(event);
        const timeMs = event.time === undefined ? pending.lastTimeMs : timestampMs(event.time);
        this.index.push(pending.lines[i]!.length, messageTypes.has(type), timeMs);
        this.checkpoints.advance(reads.has(type) ? event : undefined);
        if (type === 'turn/start') this.turnOpen = true;
        else if (type === 'turn/end') this.turnOpen = false;
      });
    }
    this.writer?.update();
    this.lastTime = new Date(batch.at(-1)!.lastTimeMs);
    const events = batch.flatMap((p) => p.events);
    this.recent.push(
      events,
      batch.flatMap((p) => p.lines.map((line) => line.length)),
    );
    this.tails.push(events);
    for (const pending of batch) pending.resolve(pending.events);
    this.file.onAppend?.(events, this.index.end);
  }

  /** A failed write: cut any partial bytes, fail every queued append, reuse their seqs. */
  private async abandon(failed: PendingAppend[], durableEnd: number, cause: unknown) {
    this.queue = [];
    this.nextSeq = this.index.length;
    await this.cutBack(durableEnd).catch(() => undefined);
    const error = this.ioError(cause, 'cannot append');
    for (const pending of failed) pending.reject(error);
  }

  /** Truncates the file back to `durableEnd`; `dirty` stays set while that fails. */
  private async cutBack(durableEnd: number): Promise<void> {
    await this.fd.truncate(durableEnd);
    this.dirty = false;
  }

  private ioError(error: unknown, action: string): JournalError {
    const { path, sessionId } = this.file;
    return ioError(error, {
      action: `session ${sessionId}: ${action}`,
      path,
      dataDir: dirname(path),
    });
  }

  private corrupt(seq: number, reason: string): JournalError {
    const line = seq + 2;
    return new JournalError('corrupt', `session ${this.file.sessionId}: line ${line}: ${reason}`, {
      sessionId: this.file.sessionId,
      line,
    });
  }
}

/** A `catch` handler that throws `map(error)`. */
function rethrow(map: (error: unknown) => Error): (error: unknown) => never {
  return (error) => {
    throw map(error);
  };
}
