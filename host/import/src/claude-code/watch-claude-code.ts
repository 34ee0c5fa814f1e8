import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { JournalStore } from '@dsh/journal';
import { findTranscripts } from './find-transcripts.js';
import { acquireImportLock } from '../import-lock.js';
import { importTranscript } from './import-transcript.js';

/** Options of `watchClaudeCode`. */
export interface WatchClaudeCodeOptions {
  /** Problems that skip a line or a file, one message each. */
  readonly onWarning?: (message: string) => void;
  /** Polling period in ms, the fallback when file events are missed (1000 by default). */
  readonly pollMs?: number;
}

/** A running watch. */
export interface ClaudeCodeWatch {
  /** Runs one scan now (after any scan in progress) and resolves when it is done. */
  scan(): Promise<void>;
  /** Stops watching; resolves once the scan in progress has finished. */
  close(): Promise<void>;
}

/**
 * Keeps the transcripts under `dir` imported: every transcript that grows has its new
 * lines appended to its journal through `store`, so followers of that session receive
 * them live. File events trigger a scan at once; polling every second catches what
 * file events miss (network file systems, a dir that does not exist yet).
 */
export async function watchClaudeCode(
  store: JournalStore,
  dir: string,
  options: WatchClaudeCodeOptions = {},
): Promise<ClaudeCodeWatch> {
  const release = await acquireImportLock(store.dataDir);
  const seen = new Map<string, number>();
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;

  const scanOnce = async (): Promise<void> => {
    const files = await findTranscripts(dir).catch(() => []);
    for (const file of files) {
      if (closed) return;
      const size = await stat(file.path).then(
        (s) => s.size,
        () => -1,
      );
      if (size < 0 || seen.get(file.path) === size) continue;
      try {
        const result = await importTranscript(store, file, {
          final: false,
          onWarning: options.onWarning,
        });
        if (result.waitingFor === undefined) seen.set(file.path, size);
      } catch (error) {
        seen.set(file.path, size);
        options.onWarning?.(`${file.path}: ${(error as Error).message}`);
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
