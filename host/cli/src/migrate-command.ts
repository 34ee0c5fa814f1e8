import { parseArgv } from '@dsh/client-tui/argv';
import type { JournalStore } from '@dsh/journal';
import { acquireDataDirLock, createJournalStore, dataDirHeldMessage } from '@dsh/journal-file';
import { copySessions } from './copy-sessions.js';
import { expandPath } from './expand-path.js';
import { parseStore } from './parse-serve-args.js';

/** The usage text of `dsh migrate`. */
export const migrateUsage = `usage: dsh migrate --from DATA_DIR --to postgres://USER:PASSWORD@HOST:PORT/DB
       dsh migrate --from postgres://... --to DATA_DIR

Copies every session from one store to the other: journal files into a PostgreSQL
database, or back into journal files (a backup). Idempotent and resumable: a second run
copies only what is missing, and a session that diverged is reported, never overwritten.
Stop the hosts that write a data dir first (its lock is taken).
`;

/** One side of a migration. */
type Side = { kind: 'file'; dataDir: string } | { kind: 'postgres'; url: string };

/** The settings of `dsh migrate`. */
export type MigrateRequest =
  { kind: 'migrate'; from: Side; to: Side } | { kind: 'help' } | { kind: 'error'; message: string };

/** Parses the arguments after `dsh migrate`; bad input gives an `error` naming the fix. */
export function parseMigrateArgs(
  argv: readonly string[],
  cwd: string = process.cwd(),
): MigrateRequest {
  const parsed = parseArgv({
    args: [...argv],
    allowPositionals: false,
    strict: true,
    options: {
      from: { type: 'string' },
      to: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (!parsed.ok) return { kind: 'error', message: parsed.message };
  const { values } = parsed.value;
  if (values.help === true) return { kind: 'help' };
  if (values.from === undefined || values.to === undefined) {
    return {
      kind: 'error',
      message: 'give both --from and --to (a data dir or a postgres:// URL)',
    };
  }
  const side = (text: string): Side => {
    const store = parseStore(text);
    return store?.kind === 'postgres' ? store : { kind: 'file', dataDir: expandPath(text, cwd) };
  };
  const from = side(values.from);
  const to = side(values.to);
  if (from.kind === to.kind) {
    return {
      kind: 'error',
      message: 'one side must be a data dir and the other a postgres:// URL',
    };
  }
  return { kind: 'migrate', from, to };
}

/**
 * Runs `dsh migrate`: takes the data dir's writer lock, opens both stores, copies every
 * session (`copySessions`), prints a summary on stdout and each failed session on
 * stderr. Resolves with the exit code (1 when a session failed or a store cannot open).
 */
export async function runMigrateCommand(argv: readonly string[]): Promise<number> {
  const request = parseMigrateArgs(argv);
  if (request.kind === 'help') {
    process.stdout.write(migrateUsage);
    return 0;
  }
  if (request.kind === 'error') {
    process.stderr.write(`dsh: ${request.message}\n\n${migrateUsage}`);
    return 2;
  }
  const { from, to } = request;
  const dir = from.kind === 'file' ? from.dataDir : to.kind === 'file' ? to.dataDir : '';
  const stores: JournalStore[] = [];
  let release: (() => Promise<void>) | undefined;
  try {
    const lock = await acquireDataDirLock(dir, 'dsh migrate');
    if (lock.kind === 'held') {
      throw new Error(dataDirHeldMessage(dir, lock, 'stop that host, then run dsh migrate again'));
    }
    if (lock.kind === 'read_only' && to.kind === 'file') throw new Error(lock.reason);
    if (lock.kind === 'acquired') release = lock.release;
    const open = async (side: Side): Promise<JournalStore> => {
      const store =
        side.kind === 'file'
          ? await createJournalStore({ dataDir: side.dataDir })
          : await (await import('@dsh/journal-pg')).createPgJournalStore({ url: side.url });
      stores.push(store);
      return store;
    };
    const source = await open(from);
    const target = await open(to);
    const summary = await copySessions(source, target);
    process.stdout.write(
      `dsh: copied ${summary.events} event(s), ${summary.created} new session(s), ` +
        `${summary.complete} already complete, from ${source.location} to ${target.location}\n`,
    );
    for (const failure of summary.failed) {
      process.stderr.write(`dsh: failed: session ${failure.sessionId}: ${failure.error}\n`);
    }
    return summary.failed.length > 0 ? 1 : 0;
  } catch (error) {
    process.stderr.write(`dsh: ${(error as Error).message}\n`);
    return 1;
  } finally {
    for (const store of stores) await store.close();
    await release?.();
  }
}
