import { JournalError, type EventPayload, type Journal, type JournalStore } from '@dsh/journal';
import { contentText } from './content-blocks.js';
import type { TargetState } from './import-state.js';

/** True when the store has the session. */
export async function journalExists(store: JournalStore, id: string): Promise<boolean> {
  return store.open(id).then(
    () => true,
    () => false,
  );
}

/**
 * The payload cases of events in the journal beyond those the saved state counts (none
 * normally): the re-run converts the same lines again and must find them there.
 */
export async function unknownEvents(store: JournalStore, saved: TargetState): Promise<string[]> {
  const journal = await store.open(saved.id);
  const extra = journal.length - saved.length;
  if (extra > 0) {
    const events = await journal.read(saved.length, journal.length);
    return events.map((event) => event.payload.case ?? '');
  }
  if (extra < 0) {
    throw new Error(
      `session ${saved.id} has fewer events (${journal.length}) than this import wrote (${saved.length}): delete it and its import state to re-import`,
    );
  }
  return [];
}

/**
 * Creates an imported session's journal; one that already exists (a crash before the
 * state was saved, or a lost state file) is adopted, and the payload cases of its events
 * are returned so the re-run checks and skips them instead of duplicating them.
 */
export async function createOrAdopt(
  store: JournalStore,
  init: {
    sessionId: string;
    parentId: string;
    cwd: string;
    title: string;
    model: string;
    /** The agent whose transcript the session is imported from (see `JournalHeader.origin`). */
    origin: string;
    createdAt?: Date;
  },
): Promise<{ journal: Journal; existing: string[] }> {
  try {
    const journal = await store.create({ ...init, parentId: init.parentId || undefined });
    return { journal, existing: [] };
  } catch (error) {
    if (!(error instanceof JournalError && error.kind === 'exists')) throw error;
    const journal = await store.open(init.sessionId);
    const events = await journal.read(0, journal.length);
    return { journal, existing: events.map((event) => event.payload.case ?? '') };
  }
}

/**
 * The title of an imported session: the title the transcript gave it, else its first
 * prompt's first line (markup already made readable by the converter), else `fallback`
 * (a summary line), prefixed with the agent's name.
 */
export function titleOf(
  payloads: readonly EventPayload[],
  agent: string,
  given = '',
  fallback = '',
): string {
  const named = (text: string): string => {
    const line = text.trim().split('\n', 1)[0] ?? '';
    return `${agent}: ${line.length > 80 ? `${line.slice(0, 79)}…` : line}`;
  };
  if (given.trim() !== '') return named(given);
  for (const payload of payloads) {
    if (payload.case !== 'userMessage') continue;
    const text = contentText(payload.value.content);
    if (text.trim() !== '') return named(text);
  }
  return fallback.trim() !== '' ? named(fallback) : `${agent} session`;
}

/** The model of an imported session: the first assistant message's. */
export function modelOf(payloads: readonly EventPayload[]): string {
  for (const payload of payloads)
    if (payload.case === 'assistantMessage') return payload.value.model;
  return '';
}
