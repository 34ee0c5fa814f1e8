import { randomBytes } from 'node:crypto';
import { access, constants, mkdir, readdir, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  createProjectionRegistry,
  type ProjectionRegistry,
  isJournalTime,
  formatVersion,
  type JournalHeader,
  JournalError,
  type Journal,
  type JournalStore,
  type JournalSummary,
  type StoreChange,
  parseSessionId,
} from '@dsh/journal';
import { FileJournal } from './file-journal.js';
import { readJournalEnds } from './read-journal-ends.js';
import { ioError } from './io-error.js';
import { writeJournalHeader } from './write-journal-header.js';

/** Options of `createJournalStore`. */
export interface JournalStoreOptions {
  /** Writable sessions live here as `<sessionId>.jsonl`; created when missing. */
  readonly dataDir: string;
  /** Read-only session dirs (fixtures, imports); the data dir wins on a shared id. */
  readonly fixtureDirs?: readonly string[];
  /**
   * Runs once on each writable journal when it is first opened, before any caller gets
   * it: a serving host closes there the turn a stopped host left open. A failure (disk
   * full) is logged and the journal is served as it is.
   */
  readonly onFirstOpen?: (journal: Journal) => Promise<unknown>;
  /** The projections every journal keeps for its baselines (the standard ones unless given). */
  readonly projections?: ProjectionRegistry;
}

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
 * Opens the journal store over a data dir and optional read-only fixture dirs. Journals
 * stay open once opened; a journal that fails to open fails alone (and lists with its
 * error) while every other session keeps working.
 */
export async function createJournalStore(options: JournalStoreOptions): Promise<JournalStore> {
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
  return new FileJournalStore(
    dataDir,
    (options.fixtureDirs ?? []).map((d) => resolve(d)),
    options.onFirstOpen,
    writable,
    options.projections ?? createProjectionRegistry(),
  );
}

class FileJournalStore implements JournalStore {
  private readonly opened = new Map<string, FileJournal>();
  private readonly opening = new Map<string, Promise<FileJournal>>();
  private readonly failures = new Map<string, Failure>();
  private readonly listeners = new Set<(change: StoreChange) => void>();
  private readonly updated = new Set<string>();

  constructor(
    readonly dataDir: string,
    private readonly fixtureDirs: readonly string[],
    private readonly onFirstOpen: JournalStoreOptions['onFirstOpen'],
    private readonly writable: boolean,
    private readonly registry: ProjectionRegistry,
  ) {}

  async list(): Promise<JournalSummary[]> {
    const ids = new Map<string, string>();
    for (const dir of [this.dataDir, ...this.fixtureDirs]) {
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
        if (parseSessionId(id).ok && !ids.has(id)) ids.set(id, dir);
      }
    }
    const summaries = await Promise.all([...ids.keys()].map((id) => this.summary(id)));
    return summaries.filter((s): s is JournalSummary => s !== undefined);
  }

  async open(sessionId: string): Promise<Journal> {
    const id = validId(sessionId, 'session');
    const open = this.opened.get(id);
    if (open !== undefined) return open;
    let pending = this.opening.get(id);
    if (pending === undefined) {
      pending = this.load(id).finally(() => this.opening.delete(id));
      this.opening.set(id, pending);
    }
    return pending;
  }

  async create(init: {
    cwd: string;
    parentId?: string;
    model?: string;
    title?: string;
    sessionId?: string;
    createdAt?: Date;
  }): Promise<Journal> {
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
      };
      const created =
        (await this.locate(id)) === undefined && (await writeJournalHeader(this.dataDir, header));
      if (created) {
        const journal = await this.open(id);
        this.emit({ kind: 'added', sessionId: id });
        return journal;
      }
      if (given || attempt >= 4) {
        throw new JournalError('exists', `session ${id} already exists: pick another id`);
      }
    }
  }

  onChange(listener: (change: StoreChange) => void): () => void {
    const entry = (change: StoreChange) => listener(change);
    this.listeners.add(entry);
    return () => {
      this.listeners.delete(entry);
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.opening.values()]);
    const journals = [...this.opened.values()];
    this.opened.clear();
    await Promise.all(journals.map((j) => j.close()));
  }

  private async load(id: string): Promise<FileJournal> {
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
        registry: this.registry,
        onAppend: () => this.noteUpdated(id),
      });
      this.failures.delete(id);
      if (!journal.readOnly && this.onFirstOpen !== undefined) {
        await this.onFirstOpen(journal).catch((error: unknown) => {
          console.error(`dsh: session ${id}: cannot recover it on open:`, error);
        });
      }
      this.opened.set(id, journal);
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

  private async summary(id: string): Promise<JournalSummary | undefined> {
    const journal = this.opened.get(id);
    if (journal !== undefined) return summaryOf(journal, undefined);
    const located = await this.locate(id);
    if (located === undefined) return undefined;
    const ends = await readJournalEnds(located.path, id).catch(() => undefined);
    const failure = this.failures.get(id);
    if (ends?.header !== undefined && ends.tail !== undefined && failure?.stamp !== located.stamp) {
      const { header, tail } = ends;
      return {
        header,
        readOnly: located.readOnly || !this.writable,
        length: tail.length,
        updatedAt: tail.lastTime ?? new Date(header.createdAt),
        error: undefined,
      };
    }
    try {
      return summaryOf(await this.open(id), undefined);
    } catch (error) {
      const header = ends?.header ?? blankHeader(id);
      return {
        header,
        readOnly: located.readOnly || !this.writable,
        length: 0,
        updatedAt: ends?.header !== undefined ? new Date(header.createdAt) : located.mtime,
        error: (error as Error).message,
      };
    }
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

  private noteUpdated(id: string): void {
    if (this.updated.size === 0) {
      setImmediate(() => {
        const ids = [...this.updated];
        this.updated.clear();
        for (const sessionId of ids) this.emit({ kind: 'updated', sessionId });
      });
    }
    this.updated.add(id);
  }

  private emit(change: StoreChange): void {
    for (const listener of this.listeners) {
      try {
        listener(change);
      } catch (error) {
        console.error('dsh: a journal store listener threw', error);
      }
    }
  }
}

function summaryOf(journal: Journal, error: string | undefined): JournalSummary {
  const { header, readOnly, length, updatedAt } = journal;
  return { header, readOnly, length, updatedAt, error };
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
