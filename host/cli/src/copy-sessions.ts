import { timestampDate } from '@bufbuild/protobuf/wkt';
import {
  encodeEventLine,
  type Journal,
  type JournalStore,
  type JournalSummary,
} from '@dsh/journal';

/** Options of `copySessions`. */
export interface CopySessionsOptions {
  /** Most events per read and append (default 1000). */
  readonly chunk?: number;
  /** Most bytes of journal lines per read (default 4 MiB; at least one event is read). */
  readonly chunkBytes?: number;
  /** Called after each session with the events it copied. */
  readonly onSession?: (sessionId: string, copied: number) => void;
}

/** What `copySessions` did. */
export interface CopySummary {
  /** Sessions created in the target. */
  readonly created: number;
  /** Events appended to the target. */
  readonly events: number;
  /** Sessions the target already had in full. */
  readonly complete: number;
  /** Sessions that could not be copied, each with the reason. */
  readonly failed: readonly { readonly sessionId: string; readonly error: string }[];
}

/**
 * Copies every session of `from` into `to`, idempotent and resumable: a session the
 * target lacks is created with the same id and header, and the events the target lacks
 * are appended with their times, so a second run copies only what came since and an
 * interrupted run goes on where it stopped. Parents are copied before their children. A
 * target session that is longer than the source, or whose last event differs from the
 * source's at that seq, has diverged and is reported, never overwritten.
 */
export async function copySessions(
  from: JournalStore,
  to: JournalStore,
  options: CopySessionsOptions = {},
): Promise<CopySummary> {
  const chunk = options.chunk ?? 1000;
  const chunkBytes = options.chunkBytes ?? 4 * 1024 * 1024;
  let created = 0;
  let events = 0;
  let complete = 0;
  const failed: { sessionId: string; error: string }[] = [];
  for (const summary of parentsFirst(await from.list())) {
    const id = summary.header.sessionId;
    try {
      if (summary.error !== undefined) throw new Error(summary.error);
      const source = await from.open(id);
      let target: Journal;
      const missing = (await to.summary(id)) === undefined;
      if (missing) {
        const { header } = source;
        target = await to.create({
          sessionId: id,
          cwd: header.cwd,
          parentId: header.parentId,
          model: header.model,
          title: header.title,
          createdAt: new Date(header.createdAt),
          ...(header.origin === undefined ? {} : { origin: header.origin }),
        });
        created += 1;
      } else {
        target = await to.open(id);
      }
      const copied = await copyEvents(source, target, chunk, chunkBytes);
      if (copied === 0 && !missing) complete += 1;
      events += copied;
      options.onSession?.(id, copied);
    } catch (error) {
      failed.push({ sessionId: id, error: (error as Error).message });
    }
  }
  return { created, events, complete, failed };
}

/** Appends to `target` the events of `source` past its end; resolves with how many. */
async function copyEvents(
  source: Journal,
  target: Journal,
  chunk: number,
  chunkBytes: number,
): Promise<number> {
  const id = source.header.sessionId;
  const end = (await source.head()).length;
  let at = (await target.head()).length;
  if (at > end) {
    throw new Error(
      `session ${id}: the target has ${at} events, the source ${end}: it diverged ` +
        '(remove the session from the target to copy it again)',
    );
  }
  if (at > 0) {
    const [mine] = await target.read(at - 1, at);
    const [theirs] = await source.read(at - 1, at);
    if (encodeEventLine(mine!) !== encodeEventLine(theirs!)) {
      throw new Error(
        `session ${id}: event ${at - 1} differs between source and target: it diverged ` +
          '(remove the session from the target to copy it again)',
      );
    }
  }
  const start = at;
  while (at < end) {
    const batch = await source.read(at, Math.min(end, at + chunk), { maxBytes: chunkBytes });
    await target.append(
      batch.map((e) => e.payload),
      { times: batch.map((e) => timestampDate(e.time!)) },
    );
    at += batch.length;
  }
  return at - start;
}

/** `summaries` ordered so that every parent comes before its children. */
function parentsFirst(summaries: readonly JournalSummary[]): JournalSummary[] {
  const byId = new Map(summaries.map((s) => [s.header.sessionId, s]));
  const ordered: JournalSummary[] = [];
  const placed = new Set<string>();
  const place = (summary: JournalSummary, seen: Set<string>): void => {
    const id = summary.header.sessionId;
    if (placed.has(id) || seen.has(id)) return;
    seen.add(id);
    const parent = byId.get(summary.header.parentId);
    if (parent !== undefined) place(parent, seen);
    placed.add(id);
    ordered.push(summary);
  };
  const sorted = [...summaries].sort((a, b) =>
    a.header.sessionId.localeCompare(b.header.sessionId),
  );
  for (const summary of sorted) place(summary, new Set());
  return ordered;
}
