import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { FileJournalStore } from '@dsh/journal-file';
import { acquireImportLock } from '../import-lock.js';
import { findTranscripts } from './find-transcripts.js';
import { importTranscript, type TranscriptFile } from './import-transcript.js';
import { isInternalAgent } from './subagent-links.js';
import type { FlushMode } from './transcript-converter.js';

/** Options of `watchClaudeCode`. */
export interface WatchClaudeCodeOptions {
  /** Problems that skip a line or a file, one message each. */
  readonly onWarning?: (message: string) => void;
  /** Polling period in ms, the fallback when file events are missed (1000 by default). */
  readonly pollMs?: number;
  /**
   * A transcript unchanged this long (ms) has paused: an assistant message still being
   * written is shown as a preview (2000 by default).
   */
  readonly idleMs?: number;
  /**
   * A transcript unchanged this long (ms) has gone quiet: its last message is written and
   * a turn whose last message called no tools ends (30000 by default).
   */
  readonly turnIdleMs?: number;
  /** The clock (ms), for tests. */
  readonly now?: () => number;
}

/** A running watch. */
export interface ClaudeCodeWatch {
  /** Runs one scan now (after any scan in progress) and resolves when it is done. */
  scan(): Promise<void>;
  /** Stops watching; resolves once the scan in progress has finished. */
  close(): Promise<void>;
}

/** What the watch knows of one transcript. */
interface Watched {
  size: number;
  /** When its size last changed (ms). */
  changed: number;
  /** The flushes still owed since it last grew. */
  owed: 'idle' | 'final' | 'none';
  /** Set once a file is refused or fails, so it is reported once per change. */
  reported: boolean;
}

/**
 * Keeps the transcripts under `dir` imported: every transcript that grows has its new
 * lines appended to its journal through `store`, so followers of that session receive
 * them live. File events trigger a scan at once; polling every second catches what
 * file events miss (network file systems, a dir that does not exist yet) and notices
 * when a transcript pauses (`idleMs`) and goes quiet (`turnIdleMs`), which is when a
 * live import writes what a one-time import writes at the end of the file.
 */
export async function watchClaudeCode(
  store: FileJournalStore,
  dir: string,
  options: WatchClaudeCodeOptions = {},
): Promise<ClaudeCodeWatch> {
  const find = async (): Promise<TranscriptFile[]> =>
    (await findTranscripts(dir).catch(() => [])).filter(
      (file) => file.kind !== 'subagent' || !isInternalAgent(file.path),
    );
  return watchFiles(store, dir, options, find, (file, flush) =>
    importTranscript(store, file, { flush, onWarning: options.onWarning }),
  );
}

/** One import pass over one file, as a watch runs it. */
export type WatchPass<F> = (
  file: F,
  flush: FlushMode,
) => Promise<{ readonly waitingFor?: string; readonly refused?: string }>;

/**
 * The watch loop shared by the importers: `find` lists the files under `dir`, `importOne`
 * runs one pass over a file (see `watchClaudeCode` for when each flush is owed).
 */
export async function watchFiles<F extends { readonly path: string }>(
  store: FileJournalStore,
  dir: string,
  options: WatchClaudeCodeOptions,
  find: () => Promise<F[]>,
  importOne: WatchPass<F>,
): Promise<ClaudeCodeWatch> {
  const release = await acquireImportLock(store.dataDir);
  const now = options.now ?? Date.now;
  const idleMs = options.idleMs ?? 2000;
  const turnIdleMs = options.turnIdleMs ?? 30_000;
  const files = new Map<string, Watched>();
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const pass = async (file: F, flush: FlushMode, entry: Watched): Promise<void> => {
    try {
      const result = await importOne(file, flush);
      if (result.waitingFor !== undefined) entry.size = -1;
      if (result.refused !== undefined && !entry.reported) {
        entry.reported = true;
        options.onWarning?.(`${file.path}: not imported: ${result.refused}`);
      }
    } catch (error) {
      if (!entry.reported) options.onWarning?.(`${file.path}: ${(error as Error).message}`);
      entry.reported = true;
    }
  };

  const scanOnce = async (): Promise<void> => {
    const found = await find();
    for (const file of found) {
      if (closed) return;
      const info = await stat(file.path).catch(() => undefined);
      if (info === undefined) continue;
      let entry = files.get(file.path);
      if (entry === undefined) {
        // A transcript untouched for a while is finished: import it as a one-time import would.
        const quiet = now() - info.mtimeMs >= turnIdleMs;
        entry = { size: -1, changed: quiet ? info.mtimeMs : now(), owed: 'final', reported: false };
        files.set(file.path, entry);
      }
      const time = now();
      if (entry.size !== info.size) {
        const first =
          entry.size === -1 && entry.owed === 'final' && time - entry.changed >= turnIdleMs;
        entry.size = info.size;
        entry.reported = false;
        if (!first) entry.changed = time;
        await pass(file, first ? 'final' : 'pass', entry);
        entry.owed = first ? 'none' : 'idle';
      } else if (entry.owed === 'idle' && time - entry.changed >= idleMs) {
        entry.owed = 'final';
        await pass(file, 'idle', entry);
      } else if (entry.owed !== 'none' && time - entry.changed >= turnIdleMs) {
        entry.owed = 'none';
        await pass(file, 'final', entry);
      }
    }
  };

  const scan = (): Promise<void> => {
    if (running !== undefined) {
      again = true;
      return running;
    }
    running = (async () => {
      do {
        again = false;
        await scanOnce();
      } while (again && !closed);
    })().finally(() => {
      running = undefined;
    });
    return running;
  };

  let timer: NodeJS.Timeout | undefined;
  const soon = (): void => {
    timer ??= setTimeout(() => {
      timer = undefined;
      void scan();
    }, 50);
  };
  let watcher: FSWatcher | undefined;
  try {
    watcher = watch(dir, { recursive: true }, soon);
    watcher.on('error', () => watcher?.close());
  } catch {
    watcher = undefined; // Polling alone covers a missing dir or a platform without recursive watch.
  }
  const poll = setInterval(() => void scan(), options.pollMs ?? 1000);
  await scan();
  return {
    scan: async () => {
      await running;
      await scan();
    },
    async close() {
      closed = true;
      clearInterval(poll);
      if (timer !== undefined) clearTimeout(timer);
      watcher?.close();
      await running;
      await release();
    },
  };
}
