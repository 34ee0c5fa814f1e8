import { watch, type FSWatcher } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join, sep } from 'node:path';
import type { SessionEvent } from '@dsh/gen/events';
import {
  eventType,
  factTypes,
  foldFacts,
  parseSessionId,
  type JournalHeader,
  type StoreChange,
} from '@dsh/journal';
import { loadCatalogCache, saveCatalogCache } from './catalog-cache.js';
import { readJournalEnds } from './read-journal-ends.js';
import { statFile } from './stat-file.js';
import { scanFacts, startCursor, type FactsCursor } from './scan-facts.js';

/** What the catalog knows of one journal file. */
export interface CatalogEntry {
  readonly id: string;
  path: string;
  /** Found in a fixture dir (not the data dir). */
  fixture: boolean;
  /** File size and mtime when last looked at; mtime -1 after an own append (not stat'ed). */
  size: number;
  mtimeMs: number;
  /** The facts folded so far, up to `cursor.bytes`. */
  cursor: FactsCursor;
  /** Header, count and last time from the file's ends, until the facts scan reaches its end. */
  ends: JournalEndsFacts | undefined;
  /** Why the facts scan stopped early; the backend then opens the journal for the verdict. */
  error: string | undefined;
}

/** What the two ends of a journal file say, before its facts are read. */
export interface JournalEndsFacts {
  readonly header: JournalHeader;
  /** Undefined when the last lines do not settle the count (a line over 1 MiB). */
  readonly length: number | undefined;
  readonly lastTime: Date | undefined;
}

/**
 * How long after a rescan (a listing that stats every file, besides `fs.watch` events)
 * the next one starts: 10 s, or 5 ms per file the catalog holds, whichever is longer. A
 * rescan costs about 25 µs of CPU a file (an idle host of 10,000 sessions spent 2-3% of
 * a core on one every 10 s), so this keeps it near 0.5% of a core whatever the count.
 */
export function rescanDelayMs(files: number): number {
  return Math.max(10_000, files * 5);
}
/** Facts scans running at once (a cold start of many sessions shares the disk). */
const scanConcurrency = 2;
/** A file (or growth) up to this size found after the start is read before it is reported. */
const eagerScanBytes = 1024 * 1024;
/** How long after a start the entries taken from the cache are checked against their files. */
const verifyDelayMs = 1_000;
/** Files stat'ed at once during a rescan. */
const statConcurrency = 64;
/** How long after a change the cache file is written. */
const saveDelayMs = 2_000;

/**
 * How much older than a listing a dir's mtime (`stamp`) must be for `sync` to trust it:
 * more than the file system's timestamp step, so a later change cannot leave the mtime
 * as it was. A stamp with a part below the second comes from fine timestamps (Linux's
 * step is the kernel's clock tick, at most 10 ms); a whole-second one may come from a
 * file system that counts seconds, or two (FAT). Every start takes the data dir lock (a
 * new entry), so the margin is also how long a fresh host reads the dir at each list.
 */
function settledDirMs(stamp: number): number {
  return stamp % 1_000 !== 0 ? 100 : 2_000;
}

/** The mtimes of the dirs a listing read, and when it started. */
interface DirStamps {
  readonly dirs: readonly string[];
  readonly stamps: readonly (number | undefined)[];
  readonly listedAt: number;
}

/** A dir's mtime in ms; undefined when it cannot be stat'ed. */
async function dirStamp(dir: string): Promise<number | undefined> {
  return (await stat(dir).catch(() => undefined))?.mtimeMs;
}

/**
 * The in-memory catalog of every journal file in the data dir and the fixture dirs: the
 * header, count, last time and the list facts (title, pending, usage, model, archived) of
 * each, so listing never reads a journal. It is kept current by the backend's own
 * appends (folded as they commit), and by the dirs themselves: `fs.watch` events and a
 * rescan (`rescanDelayMs`) find files that appear, grow or go (an import by another
 * process); a grown file is read from where the catalog stopped, never again from the
 * start. Journals are append-only, so a file whose size is unchanged is taken as
 * unchanged. The catalog is cached in `<dataDir>/catalog.json`, so a restart reads no
 * file it knows; the cache is only a shortcut, checked against every file's size and
 * mtime (see `start`).
 */
export class SessionCatalog {
  readonly entries = new Map<string, CatalogEntry>();
  private readonly scanQueue = new Set<string>();
  private scanning = 0;
  private readonly idle: (() => void)[] = [];
  private watchers: FSWatcher[] = [];
  private timer: NodeJS.Timeout | undefined;
  private saveTimer: NodeJS.Timeout | undefined;
  /** The cache write under way: saves take turns, as they share one temporary file. */
  private saving: Promise<void> = Promise.resolve();
  private touched = new Set<string>();
  private readonly looking = new Map<string, Promise<void>>();
  /**
   * Per dir, its mtime when `sync` listed it, kept only when that mtime was well before
   * the listing: while a dir's mtime stays the same, no entry was added or removed.
   */
  private readonly listed = new Map<string, number>();
  private refreshing: Promise<void> | undefined;
  private verifying: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    private readonly dataDir: string,
    private readonly fixtureDirs: readonly string[],
    private readonly onChange: (changes: StoreChange[]) => void,
    private readonly persist: boolean,
    /**
     * Whether this process writes `id` now. Its appends are folded as they commit, so a
     * file event for it is its own write: looking at the file then would race the fold
     * and report the same append twice.
     */
    private readonly writesHere: (id: string) => boolean = () => false,
  ) {}

  /**
   * Loads the cache, lists the dirs once and starts watching them. The files the cache
   * knows under the same path are listed from it at once and checked against their size
   * and mtime in the background (`verified`): a file that changed while no host ran is
   * then read again and reported as updated. Every other file is looked at before this
   * resolves, so a start lists what the dirs hold.
   */
  async start(): Promise<void> {
    const cached = this.persist ? await loadCatalogCache(this.dataDir) : new Map();
    const stamped = await this.stampDirs();
    const found = await this.names();
    for (const [id, { path, fixture }] of found) {
      const hit = cached.get(id);
      if (hit === undefined || hit.path !== path) continue;
      this.entries.set(id, { id, fixture, ...hit, ends: undefined, error: undefined });
      if (hit.cursor.bytes < hit.size) this.queueScan(id);
    }
    // A cached entry under another path is of no use: its file is read as a new one.
    await this.relist(false, (id) => !this.entries.has(id), found);
    // The first list then need not read the dirs again.
    this.remember(stamped);
    // The check waits a moment, so a start's first requests have the loop to themselves.
    this.verifying = new Promise<void>((resolve) => setTimeout(resolve, verifyDelayMs).unref())
      .then(() => (this.closed ? undefined : this.refresh()))
      .then(() => this.settled())
      .catch(() => undefined);
    for (const dir of [this.dataDir, ...this.fixtureDirs]) {
      try {
        const watcher = watch(dir, (_event, name) => {
          if (typeof name === 'string' && name.endsWith('.jsonl')) this.touch(name.slice(0, -6));
        });
        watcher.on('error', () => watcher.close());
        watcher.unref();
        this.watchers.push(watcher);
      } catch {
        // No inotify watches left: the periodic rescan still finds every change.
      }
    }
    this.scheduleRescan();
  }

  private scheduleRescan(): void {
    if (this.closed) return;
    this.timer = setTimeout(() => {
      void this.refresh()
        .catch(() => undefined)
        .then(() => this.scheduleRescan());
    }, rescanDelayMs(this.entries.size));
    this.timer.unref();
  }

  /**
   * Lists the dir entries (names only, no file is stat'ed or read) and looks at the
   * names the catalog lacks or lost, so a list answers for the files there now; a file
   * that grew is found by `fs.watch` and the periodic rescan instead. A dir whose mtime
   * is the one it had at a listing well after that mtime is not listed again: no entry
   * came or went since (one `stat` instead of reading 10,000 names per call).
   */
  async sync(): Promise<void> {
    const stamped = await this.stampDirs();
    const { dirs, stamps } = stamped;
    if (stamps.every((stamp, i) => stamp !== undefined && this.listed.get(dirs[i]!) === stamp)) {
      return;
    }
    const looks: Promise<void>[] = [];
    const seen = new Set<string>();
    for (const dir of dirs) {
      const fixture = dir !== this.dataDir;
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        if (!name.endsWith('.jsonl')) continue;
        const id = name.slice(0, -'.jsonl'.length);
        if (seen.has(id)) continue;
        seen.add(id);
        const entry = this.entries.get(id);
        if (entry === undefined ? parseSessionId(id).ok : entry.fixture !== fixture) {
          looks.push(this.look(id));
        }
      }
    }
    for (const id of this.entries.keys()) if (!seen.has(id)) looks.push(this.look(id));
    await Promise.all(looks);
    this.remember(stamped);
  }

  /** The dirs' mtimes, taken just before a listing of them, and when it started. */
  private async stampDirs(): Promise<DirStamps> {
    const dirs = [this.dataDir, ...this.fixtureDirs];
    const stamps = await Promise.all(dirs.map(dirStamp));
    return { dirs, stamps, listedAt: Date.now() };
  }

  /**
   * Keeps the stamps of a listing that are well before it (`settledDirMs`): a change
   * after the listing gets an mtime of at least its time less the file system's step,
   * so such a stamp tells every later change apart.
   */
  private remember({ dirs, stamps, listedAt }: DirStamps): void {
    stamps.forEach((stamp, i) => {
      if (stamp !== undefined && stamp < listedAt - settledDirMs(stamp)) {
        this.listed.set(dirs[i]!, stamp);
      } else this.listed.delete(dirs[i]!);
    });
  }

  /** Lists the dirs again now, stat'ing every file. */
  refresh(): Promise<void> {
    this.refreshing ??= this.relist(true).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  /**
   * Resolves once every entry taken from the cache at start was checked against its file
   * and the files that changed were read again.
   */
  verified(): Promise<void> {
    return this.verifying;
  }

  /** Resolves once no facts scan is queued or running. */
  settled(): Promise<void> {
    if (this.scanning === 0 && this.scanQueue.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.idle.push(resolve));
  }

  /** Looks at one session's file again (it was created, written or removed). */
  look(id: string): Promise<void> {
    let pending = this.looking.get(id);
    if (pending === undefined) {
      pending = this.lookNow(id).finally(() => this.looking.delete(id));
      this.looking.set(id, pending);
    }
    return pending;
  }

  private async lookNow(id: string): Promise<void> {
    const found = await this.locate(id);
    const entry = this.entries.get(id);
    if (found === undefined) {
      if (entry !== undefined) this.drop(id);
      return;
    }
    if (entry === undefined) {
      // A small file is read at once (in `add`), so its first listing has its facts (or
      // its error); a larger one is listed from its ends, and read soon.
      if (await this.add(id, found.path, found.fixture, found.size, found.mtimeMs)) {
        await this.scanSoon(id, found.size);
      }
      this.onChange([{ kind: 'added', sessionId: id }]);
    } else if (this.differs(entry, found)) {
      this.update(entry, found);
      await this.scanSoon(id, found.size - entry.cursor.bytes);
      this.onChange([{ kind: 'updated', sessionId: id }]);
    }
  }

  /** Scans `id` now when the bytes to read are few, else queues the scan. */
  private async scanSoon(id: string, bytes: number): Promise<void> {
    if (bytes > eagerScanBytes || this.scanQueue.has(id)) return this.queueScan(id);
    await this.scan(id);
  }

  /**
   * Folds events the backend just made durable (the file now ends at `end`); when the
   * catalog is not exactly at their start (a scan is behind), the file is read instead.
   */
  appended(id: string, events: readonly SessionEvent[], end: number): void {
    const entry = this.entries.get(id);
    const first = events[0];
    if (entry === undefined || first === undefined) return;
    const { cursor } = entry;
    if (cursor.length !== first.seq || this.scanQueue.has(id) || entry.ends !== undefined) {
      entry.size = Math.max(entry.size, end);
      entry.mtimeMs = -1;
      this.queueScan(id);
      return;
    }
    let facts = cursor.facts;
    for (const event of events) {
      if (factTypes.has(eventType(event))) facts = foldFacts(facts, event);
    }
    const last = events.at(-1)!;
    const seconds = Number(last.time?.seconds ?? 0n);
    const lastTime = new Date(seconds * 1000 + Math.floor((last.time?.nanos ?? 0) / 1e6));
    entry.cursor = { header: cursor.header, length: last.seq + 1, bytes: end, lastTime, facts };
    entry.size = end;
    entry.mtimeMs = -1;
    this.scheduleSave();
  }

  /** Forgets a session whose file is gone (deleted to the trash) and reports it removed. */
  drop(id: string): void {
    if (!this.entries.delete(id)) return;
    this.scanQueue.delete(id);
    this.onChange([{ kind: 'removed', sessionId: id }]);
    this.scheduleSave();
  }

  /** Stops watching and writes the cache. */
  async close(): Promise<void> {
    this.closed = true;
    for (const watcher of this.watchers) watcher.close();
    clearTimeout(this.timer);
    clearTimeout(this.saveTimer);
    await this.refreshing?.catch(() => undefined);
    this.scanQueue.clear();
    await this.settled();
    if (this.persist) await this.save();
  }

  private save(): Promise<void> {
    this.saving = this.saving.then(() =>
      saveCatalogCache(this.dataDir, this.entries).catch(() => undefined),
    );
    return this.saving;
  }

  private touch(id: string): void {
    if (this.touched.size === 0) {
      setTimeout(() => {
        const ids = [...this.touched];
        this.touched.clear();
        for (const touchedId of ids) {
          if (!this.writesHere(touchedId)) void this.look(touchedId).catch(() => undefined);
        }
      }, 50).unref();
    }
    this.touched.add(id);
  }

  /** The journal files of the dirs by session id, the data dir winning a shared id. */
  private async names(): Promise<Map<string, { path: string; fixture: boolean }>> {
    const found = new Map<string, { path: string; fixture: boolean }>();
    for (const dir of [this.dataDir, ...this.fixtureDirs]) {
      // A valid id is a plain name, so the dir joined once and the name appended is the
      // path `join` would give, without normalizing 10,000 paths at each start.
      const prefix = join(dir, sep);
      for (const name of await readdir(dir).catch(() => [] as string[])) {
        const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
        if (id !== '' && !found.has(id) && parseSessionId(id).ok) {
          found.set(id, { path: prefix + name, fixture: dir !== this.dataDir });
        }
      }
    }
    return found;
  }

  /** Stats the files of the dirs (those `only` accepts) and folds what changed. */
  private async relist(
    report: boolean,
    only: (id: string) => boolean = () => true,
    listed?: Map<string, { path: string; fixture: boolean }>,
  ): Promise<void> {
    const found = listed ?? (await this.names());
    const changes: StoreChange[] = [];
    for (const id of [...this.entries.keys()]) {
      if (!found.has(id)) {
        this.entries.delete(id);
        changes.push({ kind: 'removed', sessionId: id });
      }
    }
    // Whether the cache file no longer says what the catalog holds (not for entries it gave).
    let stale = changes.length > 0;
    const ids = [...found.keys()].filter(only);
    for (let i = 0; i < ids.length; i += statConcurrency) {
      await Promise.all(
        ids.slice(i, i + statConcurrency).map(async (id) => {
          const { path, fixture } = found.get(id)!;
          const info = await statFile(path);
          if (info === undefined || !info.isFile) return;
          const seen = { path, fixture, size: info.size, mtimeMs: info.mtimeMs };
          const entry = this.entries.get(id);
          if (entry === undefined) {
            if (await this.add(id, path, fixture, info.size, info.mtimeMs)) this.queueScan(id);
            stale = true;
            changes.push({ kind: 'added', sessionId: id });
          } else if (this.differs(entry, seen)) {
            this.update(entry, seen);
            this.queueScan(id);
            stale = true;
            changes.push({ kind: 'updated', sessionId: id });
          }
        }),
      );
    }
    if (report && changes.length > 0) this.onChange(changes);
    if (stale) this.scheduleSave();
  }

  private async add(
    id: string,
    path: string,
    fixture: boolean,
    size: number,
    mtimeMs: number,
  ): Promise<boolean> {
    if (size <= eagerScanBytes) {
      // A small file is read whole at once (one read, like its two ends would cost), so
      // its first listing has its facts and the next start finds it in the cache.
      this.entries.set(id, {
        id,
        path,
        fixture,
        size,
        mtimeMs,
        cursor: startCursor,
        ends: undefined,
        error: undefined,
      });
      await this.scan(id, false);
      return false;
    }
    const ends = await readJournalEnds(path, id).catch(() => undefined);
    const header = ends?.header;
    this.entries.set(id, {
      id,
      path,
      fixture,
      size,
      mtimeMs,
      cursor: startCursor,
      ends:
        header === undefined
          ? undefined
          : { header, length: ends?.tail?.length, lastTime: ends?.tail?.lastTime },
      error: undefined,
    });
    return true;
  }

  private differs(entry: CatalogEntry, seen: { path: string; size: number; mtimeMs: number }) {
    if (entry.path !== seen.path || entry.size !== seen.size) return true;
    if (entry.mtimeMs === -1) {
      entry.mtimeMs = seen.mtimeMs;
      return false;
    }
    return entry.mtimeMs !== seen.mtimeMs;
  }

  private update(
    entry: CatalogEntry,
    seen: { path: string; fixture: boolean; size: number; mtimeMs: number },
  ) {
    // A file that shrank or moved is read again from the start; one that grew, from the cursor.
    if (entry.path !== seen.path || seen.size < entry.cursor.bytes) entry.cursor = startCursor;
    entry.path = seen.path;
    entry.fixture = seen.fixture;
    entry.size = seen.size;
    entry.mtimeMs = seen.mtimeMs;
  }

  private queueScan(id: string): void {
    if (this.closed) return;
    this.scanQueue.add(id);
    while (this.scanning < scanConcurrency && this.scanQueue.size > 0) void this.scanNext();
  }

  private async scanNext(): Promise<void> {
    const id = this.scanQueue.values().next().value as string;
    this.scanQueue.delete(id);
    this.scanning += 1;
    try {
      await this.scan(id);
    } finally {
      this.scanning -= 1;
      if (this.closed) this.scanQueue.clear();
      if (this.scanQueue.size > 0) void this.scanNext();
      else if (this.scanning === 0) {
        for (const resolve of this.idle.splice(0)) resolve();
      }
    }
  }

  /** Folds the file past the entry's cursor; `report` false for a file not yet reported added. */
  private async scan(id: string, report = true): Promise<void> {
    const entry = this.entries.get(id);
    if (entry === undefined) return;
    const from = entry.cursor;
    const scanned = await scanFacts(entry.path, id, from).catch((error: unknown) => ({
      ok: false as const,
      cursor: from,
      error: (error as Error).message,
    }));
    if (this.entries.get(id) !== entry) return;
    if (!scanned.ok && from !== startCursor && from.bytes > 0) {
      // The cursor did not fit the file (it was replaced): read it whole.
      entry.cursor = startCursor;
      return this.scan(id, report);
    }
    // Appends folded while the scan ran are in the file too: the later cursor wins.
    if (entry.cursor === from || entry.cursor.bytes <= scanned.cursor.bytes) {
      entry.cursor = scanned.cursor;
    }
    entry.error = scanned.ok ? undefined : scanned.error;
    if (entry.ends !== undefined && entry.cursor.bytes >= entry.size) entry.ends = undefined;
    const before = { length: from.length, facts: from.facts };
    const changed = before.length !== entry.cursor.length || before.facts !== entry.cursor.facts;
    if (report && changed) {
      this.onChange([{ kind: 'updated', sessionId: id }]);
    }
    this.scheduleSave();
  }

  private async locate(id: string) {
    for (const dir of [this.dataDir, ...this.fixtureDirs]) {
      const path = join(dir, `${id}.jsonl`);
      const info = await stat(path).catch(() => undefined);
      if (info?.isFile()) {
        return { path, fixture: dir !== this.dataDir, size: info.size, mtimeMs: info.mtimeMs };
      }
    }
    return undefined;
  }

  private scheduleSave(): void {
    if (!this.persist || this.closed || this.saveTimer !== undefined) return;
    this.saveTimer = setTimeout(() => {
      this.saveTimer = undefined;
      void this.save();
    }, saveDelayMs);
    this.saveTimer.unref();
  }
}
