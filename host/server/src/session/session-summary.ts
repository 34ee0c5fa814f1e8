import { create } from '@bufbuild/protobuf';
import { timestampFromDate } from '@bufbuild/protobuf/wkt';
import { SessionSummarySchema, type SessionSummary } from '@dsh/gen/service';
import { compareSessionIds, tokenUsage, type JournalSummary } from '@dsh/journal';

/**
 * The wire summary of a session: header facts, size, times, running state, error. An
 * imported session (its header names an origin) is read-only whatever its file allows.
 */
export function sessionSummary(source: JournalSummary, running: boolean): SessionSummary {
  const kept = wireForms.get(source);
  if (kept !== undefined && kept.running === running) return kept;
  const wire = wireSummary(source, running);
  wireForms.set(source, wire);
  return wire;
}

/**
 * Wire forms by store summary: a store that hands out the same summary object while the
 * session is unchanged (the file backend's catalog) gets each converted once.
 */
const wireForms = new WeakMap<JournalSummary, SessionSummary>();

function wireSummary(source: JournalSummary, running: boolean): SessionSummary {
  const { header } = source;
  const created = new Date(header.createdAt);
  return create(SessionSummarySchema, {
    id: header.sessionId,
    cwd: header.cwd,
    parentId: header.parentId,
    createdAt: Number.isNaN(created.getTime()) ? undefined : timestampFromDate(created),
    updatedAt: timestampFromDate(source.updatedAt),
    running,
    title: source.title,
    model: source.model,
    eventCount: source.length,
    readOnly: source.readOnly || (header.origin ?? '') !== '',
    error: source.error ?? '',
    origin: header.origin ?? '',
    pending: source.pending ?? 0,
    tokenUsage:
      source.usage === undefined ? undefined : tokenUsage.toBaseline(source.usage).tokenUsage,
    archived: source.archived ?? false,
  });
}

/** Orders summaries newest first (by last update), then by id for a stable order. */
export function newestFirst(a: JournalSummary, b: JournalSummary): number {
  const byTime = b.updatedAt.getTime() - a.updatedAt.getTime();
  return byTime !== 0 ? byTime : compareSessionIds(a.header.sessionId, b.header.sessionId);
}
