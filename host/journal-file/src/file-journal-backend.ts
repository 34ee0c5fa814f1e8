import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, rename, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  createProjectionRegistry,
  type ProjectionRegistry,
  isJournalTime,
  formatVersion,
  type JournalHeader,
  JournalError,
  type CreateJournal,
  type JournalBackend,
  type JournalHead,
  type JournalPage,
  type JournalSummary,
  batchUpdates,
  LiveFeed,
  type LiveOptions,
  type StoreChange,
  factsTitle,
  parseSessionId,
} from '@dsh/journal';
import { SessionCatalog, type CatalogEntry } from './session-catalog.js';
import { FileJournal, type JournalFile } from './file-journal.js';
import { indexPath } from './persisted-index.js';
import { JournalPool, type PooledLog } from './pooled-log.js';
import { readJournalEnds } from './read-journal-ends.js';
import { readTailBackwards } from './read-tail-backwards.js';
import { ioError } from './io-error.js';
import { writeJournalHeader } from './write-journal-header.js';

/** Options of `createFileJournalBackend`. */
export interface FileJournalOptions {
  /** Writable sessions live here as `<sessionId>.jsonl`; created when missing. */
  readonly dataDir: string;
  /** Read-only session dirs (fixtures, imports); the data dir wins on a shared id. */
  readonly fixtureDirs?: readonly string[];
  /** The projections every journal keeps for its baselines (the standard ones unless given). */
  readonly projections?: ProjectionRegistry;
  /** Keep the session catalog's cache in `<dataDir>/catalog.json` (default true). */
  readonly catalogCache?: boolean;
  /** Most journal files kept open while idle (`defaultOpenJournals` unless given). */
  readonly openJournals?: number;
  /** Keep each writable journal's index in `<id>.idx` beside it (default true). */
  readonly indexFiles?: boolean;
  /** Where the backend says what it did about a missing, stale or damaged index. */
  readonly log?: (line: string) => void;
  /**
   * Journal bytes an open must scan (no usable index) above which a tail page is read
   * backwards from the journal's end meanwhile (`tailWhileOpening`); 8 MiB by default.
   */
  readonly longScanBytes?: number;
}

/** Idle journal files kept open: each holds a file descriptor and its index (8 bytes/event). */
export const defaultOpenJournals = 64;

/** The folder under the data dir that deleted sessions are moved to. */
export const trashDirName = 'trash';

interface Located {
  readonly path: string;
  readonly readOnly: boolean;
  readonly stamp: string;
  readonly mtime: Date;
}

interface Failure {
  readonly stamp: string;
  readonly error: JournalError;
}

/**
 * Opens the file backend over a data dir and optional read-only fixture dirs. Journals
 * stay open once opened; a journal that fails to open fails alone (and lists with its
 * error) while every other session keeps working.
 */
export async function createFileJournalBackend(
  options: FileJournalOptions,
): Promise<FileJournalBackend> {
  const dataDir = resolve(options.dataDir);
  await mkdir(dataDir, { recursive: true }).catch((error: unknown) => {
    throw ioError(error, {
      action: `cannot create the data dir ${dataDir}`,
      path: dataDir,
      dataDir,
    });
  });
  // A read-only file system (EROFS) shows here; its sessions then list as read-only.
  const writable = await access(dataDir, constants.W_OK).then(
    () => true,
    () => false,
  );
  const backend = new FileJournalBackend(
    dataDir,
    (options.fixtureDirs ?? []).map((d) => resolve(d)),
    writable,
    options.projections ?? createProjectionRegistry(),
    options.catalogCache ?? writable,
    options.openJournals ?? defaultOpenJournals,
    {
      persistIndex: options.indexFiles ?? true,
      log: options.log,
      longScanBytes: options.longScanBytes,
    },
  );
  await backend.catalog.start();
  return backend;
}

/** The file backend: `<dataDir>/<id>.jsonl` per session, plus read-only fixture dirs. */
export class FileJournalBackend implements JournalBackend {
  private readonly opened = new Map<string, PooledLog>();
  private readonly opening = new Map<string, Promise<PooledLog>>();
  /**
   * Per open in progress: resolves true when it starts a long scan (no usable index),
   * false when it settles without one. What `tailWhileOpening` waits on.
   */
  private readonly longScans = new Map<string, Promise<boolean>>();
  private readonly summaries = new Map<
    string,
    { cursor: CatalogEntry['cursor']; ends: CatalogEntry['ends']; summary: JournalSummary }
  >();
  /** The open journal files, closed when idle past the cap. */
  readonly pool: JournalPool;
  private readonly failures = new Map<string, Failure>();
  private readonly changes = new LiveFeed<StoreChange>();
  private readonly noteUpdated = batchUpdates(this.changes);
  /** Every session's list facts, kept current without reading journals per list. */
  readonly catalog: SessionCatalog;

  constructor(
    readonly dataDir: string,
    private readonly fixtureDirs: readonly string[],
    private readonly writable: boolean,
    readonly projections: ProjectionRegistry,
    catalogCache: boolean,
    openCap: number,
    private readonly indexing: Pick<JournalFile, 'persistIndex' | 'log' | 'longScanBytes'>,
  ) {
    this.pool = new JournalPool(openCap, (id) => this.openFile(id));
    this.catalog = new SessionCatalog(
      dataDir,
      fixtureDirs,
      (changes) => this.changes.push(changes),
      catalogCache,
      (id) => this.pool.writes(id),
    );
  }

  get location(): string {
    return this.dataDir;
  }

  /** From the catalog: reads no journal but the ones whose facts could not be read. */
  async list(): Promise<JournalSummary[]> {
    await this.catalog.sync();
    const summaries: JournalSummary[] = [];
    const unread: Promise<JournalSummary | undefined>[] = [];
    for (const entry of this.catalog.entries.values()) {
      const known = this.fromCatalog(entry);
      if (known !== undefined) summaries.push(known);
      else unread.push(this.readSummary(entry.id));
    }
    for (const summary of await Promise.all(unread)) if (summary) summaries.push(summary);
    return summaries;
  }

  async summary(sessionId: string): Promise<JournalSummary | undefined> {
    const id = validId(sessionId, 'session');
    let entry = this.catalog.entries.get(id);
    if (entry === undefined) {
      await this.catalog.look(id);
      entry = this.catalog.entries.get(id);
      if (entry === undefined) return undefined;
    }
    return this.fromCatalog(entry) ?? this.readSummary(id);
  }

  async remove(sessionId: string): Promise<string> {
    const id = validId(sessionId, 'session');
    const located = await this.locate(id);
    if (located === undefined) throw new JournalError('not_found', `session ${id} does not exist`);
    if (located.readOnly || !this.writable) {
      throw new JournalError(
        'read_only',
        `session ${id} is in a read-only dir (${located.path}): remove the file there to delete it`,
      );
    }
    await this.opening.get(id)?.catch(() => undefined);
    const journal = this.opened.get(id);
    this.opened.delete(id);
    await journal?.close();
    const stampName = new Date().toISOString().replace(/[:.]/g, '-');
    const trash = join(this.dataDir, trashDirName, `${id}-${stampName}`);
    const fail = (error: unknown) => {
      throw ioError(error, {
        action: `session ${id}: cannot move it to the trash ${trash}`,
        path: trash,
        dataDir: this.dataDir,
      });
    };
    await mkdir(trash, { recursive: true }).catch(fail);
    await rename(located.path, join(trash, `${id}.jsonl`)).catch(fail);
    // The index goes with it (a journal moved back finds it; a missing one is rebuilt).
    await rename(indexPath(located.path), join(trash, `${id}.idx`)).catch(() => undefined);
    this.failures.delete(id);
    this.catalog.drop(id);
    return trash;
  }

  async open(sessionId: string): Promise<PooledLog> {
    const id = validId(sessionId, 'session');
    const open = this.opened.get(id);
    if (open !== undefined) return open;
    let pending = this.opening.get(id);
    if (pending === undefined) {
      let scanning!: (long: boolean) => void;
      this.longScans.set(id, new Promise<boolean>((resolve) => (scanning = resolve)));
      pending = this.load(id, () => scanning(true)).finally(() => {
        scanning(false);
        this.longScans.delete(id);
        this.opening.delete(id);
      });
      this.opening.set(id, pending);
    }
    return pending;
  }

  /**
   * The tail page of a session whose open (begun by the caller) scans a long journal
   * without a usable index: read backwards from the journal's end, without baselines
   * (`baselinePending`). Undefined when the open is quick or done, or the end alone
   * cannot answer: the caller waits for the open.
   */
  async tailWhileOpening(sessionId: string, maxMessages: number): Promise<JournalPage | undefined> {
    const scanning = this.longScans.get(sessionId);
    if (scanning === undefined || !(await scanning)) return undefined;
    const located = await this.locate(sessionId);
    if (located === undefined) return undefined;
    return readTailBackwards(located.path, sessionId, maxMessages).catch(() => undefined);
  }

  async create(init: CreateJournal): Promise<PooledLog> {
    const parentId = init.parentId ?? '';
    if (parentId !== '') {
      const parent = validId(parentId, 'parent session');
      if ((await this.locate(parent)) === undefined) {
        throw new JournalError('not_found', `parent session ${parent} does not exist`);
      }
    }
    const given = init.sessionId !== undefined && init.sessionId !== '';
    for (let attempt = 0; ; attempt += 1) {
      const id = given ? validId(init.sessionId!, 'session') : newSessionId();
      const header: JournalHeader = {
        formatVersion,
        sessionId: id,
        cwd: init.cwd,
        parentId,
        createdAt: (init.createdAt !== undefined && isJournalTime(init.createdAt)
          ? init.createdAt
          : new Date()
        ).toISOString(),
        model: init.model ?? '',
        title: init.title ?? '',
        ...(init.origin === undefined || init.origin === '' ? {} : { origin: init.origin }),
      };
      const created =
        (await this.locate(id)) === undefined && (await writeJournalHeader(this.dataDir, header));
      if (created) {
        await this.catalog.look(id);
        return await this.open(id);
      }
      if (given || attempt >= 4) {
        throw new JournalError('exists', `session ${id} already exists: pick another id`);
      }
    }
  }

  watch(options: LiveOptions): AsyncIterable<readonly StoreChange[]> {
    return this.changes.subscribe(options.signal);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.opening.values()]);
    const journals = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(journals.map((j) => j.close()));
    await this.catalog.close();
    this.changes.close();
  }

  private async load(id: string, onLongScan: () => void): Promise<PooledLog> {
    const log = this.pool.adopt(id, await this.openFile(id, onLongScan));
    this.opened.set(id, log);
    return log;
  }

  /** Opens and scans a session's journal file (again, after the pool closed it). */
  private async openFile(id: string, onLongScan?: () => void): Promise<FileJournal> {
    const located = await this.locate(id);
    if (located === undefined) {
      throw new JournalError('not_found', `session ${id} does not exist`);
    }
    const failure = this.failures.get(id);
    if (failure !== undefined && failure.stamp === located.stamp) throw failure.error;
    try {
      const journal = await FileJournal.open({
        path: located.path,
        sessionId: id,
        readOnly: located.readOnly,
        registry: this.projections,
        ...this.indexing,
        onLongScan,
        onAppend: (events, end) => {
          this.catalog.appended(id, events, end);
          this.noteUpdated(id);
        },
      });
      this.failures.delete(id);
      return journal;
    } catch (error) {
      const failed =
        error instanceof JournalError
          ? error
          : new JournalError(
              'corrupt',
              `session ${id}: cannot read ${located.path}: ${(error as Error).message}`,
              {
                sessionId: id,
                line: 0,
              },
            );
      // Only a bad file is remembered; an I/O failure (too many open files) is retried.
      if (failed.kind === 'corrupt') this.failures.set(id, { stamp: located.stamp, error: failed });
      throw failed;
    }
  }

  /** The catalog's summary of a session; undefined when its facts could not be read. */
  private fromCatalog(entry: CatalogEntry): JournalSummary | undefined {
    const { cursor, ends } = entry;
    const header = cursor.header ?? ends?.header;
    if (header === undefined || entry.error !== undefined) return undefined;
    if (this.failures.get(entry.id) !== undefined) return undefined;
    const journal = this.opened.get(entry.id);
    // Ends that cannot tell the count: the journal is opened to know it.
    if (ends !== undefined && ends.length === undefined && journal === undefined) return undefined;
    const endsLength = ends?.length ?? 0;
    const length = Math.max(cursor.length, endsLength, journal?.end.length ?? 0);
    const lastTime =
      journal !== undefined && journal.end.length >= length
        ? journal.end.updatedAt
        : endsLength > cursor.length
          ? ends?.lastTime
          : cursor.lastTime;
    const { facts } = cursor;
    const readOnly = journal?.readOnly ?? (entry.fixture || !this.writable);
    const kept = this.summaries.get(entry.id);
    if (
      kept !== undefined &&
      kept.cursor === cursor &&
      kept.ends === ends &&
      kept.summary.length === length &&
      kept.summary.readOnly === readOnly
    ) {
      return kept.summary;
    }
    const summary: JournalSummary = {
      header,
      readOnly,
      length,
      updatedAt: lastTime ?? new Date(header.createdAt),
      error: undefined,
      title: factsTitle(facts, header.title),
      model: facts.model !== '' ? facts.model : header.model,
      pending: facts.pending.length,
      usage: facts.usage,
      archived: facts.archived,
      // The queue is known once the facts scan has read the whole file.
      waiting: ends === undefined && cursor.length >= length ? facts.queued.length : undefined,
    };
    // The same object while nothing changed, so the server can keep its wire form.
    this.summaries.set(entry.id, { cursor, ends, summary });
    return summary;
  }

  /** A summary read from the journal file itself: its ends, or the error opening it gives. */
  private async readSummary(id: string): Promise<JournalSummary | undefined> {
    const journal = this.opened.get(id);
    if (journal !== undefined) return summaryOf(journal.header, journal.readOnly, journal.end);
    const located = await this.locate(id);
    if (located === undefined) return undefined;
    const ends = await readJournalEnds(located.path, id).catch(() => undefined);
    const failure = this.failures.get(id);
    if (ends?.header !== undefined && ends.tail !== undefined && failure?.stamp !== located.stamp) {
      const { header, tail } = ends;
      return summaryOf(header, located.readOnly || !this.writable, {
        length: tail.length,
        updatedAt: tail.lastTime ?? new Date(header.createdAt),
      });
    }
    try {
      const journal = await this.open(id);
      return summaryOf(journal.header, journal.readOnly, journal.end);
    } catch (error) {
      const header = ends?.header ?? blankHeader(id);
      return summaryOf(
        header,
        located.readOnly || !this.writable,
        {
          length: 0,
          updatedAt: ends?.header !== undefined ? new Date(header.createdAt) : located.mtime,
        },
        (error as Error).message,
      );
    }
  }

  /**
   * Every journal file with its session id and the time of its last event, as the session
   * list orders sessions (`updatedAt`), read from the catalog: no journal is opened or
   * read. A file whose facts could not be read gives its modification time instead.
   */
  async journalFiles(): Promise<{ sessionId: string; path: string; updatedAtMs: number }[]> {
    await this.catalog.sync();
    const files: { sessionId: string; path: string; updatedAtMs: number }[] = [];
    for (const entry of this.catalog.entries.values()) {
      const updatedAt = this.fromCatalog(entry)?.updatedAt.getTime();
      files.push({
        sessionId: entry.id,
        path: entry.path,
        updatedAtMs: updatedAt ?? Math.max(0, Math.floor(entry.mtimeMs)),
      });
    }
    return files;
  }

  /** The journal file of a session (the data dir's first), or undefined when there is none. */
  async journalPath(sessionId: string): Promise<string | undefined> {
    if (!parseSessionId(sessionId).ok) return undefined;
    return (await this.locate(sessionId))?.path;
  }

  private async locate(id: string): Promise<Located | undefined> {
    for (const dir of [this.dataDir, ...this.fixtureDirs]) {
      const path = join(dir, `${id}.jsonl`);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) {
        const stamp = `${info.size}:${info.mtimeMs}`;
        return { path, readOnly: dir !== this.dataDir, stamp, mtime: info.mtime };
      }
    }
    return undefined;
  }
}

function summaryOf(
  header: JournalHeader,
  readOnly: boolean,
  end: JournalHead,
  error?: string,
): JournalSummary {
  const { length, updatedAt } = end;
  return { header, readOnly, length, updatedAt, error, title: header.title, model: header.model };
}

function validId(id: string, what: string): string {
  const parsed = parseSessionId(id);
  if (!parsed.ok) throw new JournalError('invalid_argument', `${what}: ${parsed.error}`);
  return parsed.value;
}

function newSessionId(): string {
  return `s-${Date.now().toString(36)}-${randomBytes(4).toString('hex')}`;
}

function blankHeader(sessionId: string): JournalHeader {
  return {
    formatVersion: 0,
    sessionId,
    cwd: '',
    parentId: '',
    createdAt: '',
    model: '',
    title: '',
  };
}
