import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Saves the whole text of tool results cut for the model, under the session's spill dir. */
export interface ResultSpill {
  /** Starts saving `text` and returns the path it is saved at. */
  save(callId: string, text: string): string;
  /** Resolves once every save started so far has finished (or failed, which is logged). */
  settled(): Promise<void>;
}

/**
 * Creates the spill of one session. A result's path depends on its call id only, so a
 * host that rebuilds the history after a restart writes the same file again. The spill
 * dir is one the file tools read without asking.
 */
export function createResultSpill(spillDir: string): ResultSpill {
  const writes = new Set<Promise<void>>();
  return {
    save(callId, text) {
      const path = join(
        spillDir,
        `${callId.replace(/[^A-Za-z0-9._-]/g, '_') || 'call'}-result.txt`,
      );
      const write = mkdir(spillDir, { recursive: true })
        .then(() => writeFile(path, text))
        .catch((cause: unknown) => {
          console.error(`dsh: cannot save the whole result of call ${callId} to ${path}:`, cause);
        })
        .finally(() => writes.delete(write));
      writes.add(write);
      return path;
    },
    async settled() {
      await Promise.all([...writes]);
    },
  };
}
