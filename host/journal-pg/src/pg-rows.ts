import type { JsonValue } from '@bufbuild/protobuf';
import {
  factsRestore,
  factsTitle,
  noFacts,
  type JournalHeader,
  type JournalSummary,
  type SessionFacts,
} from '@dsh/journal';

/** The `sessions` columns a summary is made of. */
export const sessionColumns =
  'session_id, format_version, cwd, parent_id, created_at, model, title, origin, ' +
  'length, updated_ms, changed_at, facts';

/** One `sessions` row as node-postgres returns `sessionColumns` (int8 parsed as numbers). */
export interface SessionRow {
  readonly session_id: string;
  readonly format_version: number;
  readonly cwd: string;
  readonly parent_id: string;
  readonly created_at: string;
  readonly model: string;
  readonly title: string;
  readonly origin: string | null;
  readonly length: number;
  readonly updated_ms: number;
  readonly changed_at: Date;
  readonly facts: JsonValue;
}

/** The journal header a session row keeps. */
export function headerOf(row: SessionRow): JournalHeader {
  return {
    formatVersion: row.format_version,
    sessionId: row.session_id,
    cwd: row.cwd,
    parentId: row.parent_id,
    createdAt: row.created_at,
    model: row.model,
    title: row.title,
    ...(row.origin === null ? {} : { origin: row.origin }),
  };
}

/** The facts a session row keeps (the empty facts when the column cannot be read). */
export function factsOf(row: { readonly facts: JsonValue }): SessionFacts {
  return factsRestore(row.facts) ?? noFacts;
}

/** The list summary of a session row: its header, end and catalog facts. */
export function summaryOf(row: SessionRow, header = headerOf(row)): JournalSummary {
  const facts = factsOf(row);
  return {
    header,
    readOnly: false,
    length: row.length,
    updatedAt: new Date(row.updated_ms),
    error: undefined,
    title: factsTitle(facts, header.title),
    model: facts.model !== '' ? facts.model : header.model,
    pending: facts.pending.length,
    usage: facts.usage,
    archived: facts.archived,
  };
}
