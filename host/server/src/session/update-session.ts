import type { MessageInitShape } from '@bufbuild/protobuf';
import { Code, ConnectError } from '@connectrpc/connect';
import type {
  DeleteSessionRequest,
  DeleteSessionResponseSchema,
  UpdateSessionRequest,
  UpdateSessionResponseSchema,
} from '@dsh/gen/service';
import {
  eventPayloads,
  JournalError,
  maxTitleChars,
  titleText,
  type EventPayload,
  type JournalStore,
} from '@dsh/journal';
import { abortable } from './abortable.js';
import type { AgentControl } from './agent-control.js';
import { sessionSummary } from './session-summary.js';

/**
 * Renames, archives or unarchives a session by appending `session/renamed` and
 * `session/archived`; a field equal to the current value appends nothing. Imported
 * sessions are refused: their importer owns every event after the header.
 */
export async function updateSession(
  store: JournalStore,
  agent: AgentControl,
  req: UpdateSessionRequest,
  signal: AbortSignal,
): Promise<MessageInitShape<typeof UpdateSessionResponseSchema>> {
  const journal = await abortable(store.open(req.sessionId), signal);
  const id = journal.header.sessionId;
  if ((journal.header.origin ?? '') !== '') {
    throw new ConnectError(
      `session ${id} is imported and its importer writes its journal: continue it as a ` +
        'new session (CreateSession with continue_from) to rename or archive it',
      Code.FailedPrecondition,
    );
  }
  if (journal.readOnly) {
    throw new JournalError('read_only', `session ${id} is read-only: it cannot be renamed`);
  }
  if (req.title !== undefined && req.title.trim().length > maxTitleChars) {
    throw new JournalError(
      'invalid_argument',
      `the title has ${req.title.trim().length} characters: give at most ${maxTitleChars}`,
    );
  }
  const before = await abortable(journal.summary(), signal);
  const payloads: EventPayload[] = [];
  if (req.title !== undefined && titleText(req.title) !== before.title) {
    payloads.push(eventPayloads.sessionRenamed(titleText(req.title)));
  }
  if (req.archived !== undefined && req.archived !== (before.archived ?? false)) {
    payloads.push(eventPayloads.sessionArchived(req.archived));
  }
  if (payloads.length > 0) await journal.append(payloads);
  const after = await abortable(journal.summary(), signal);
  return { session: sessionSummary(after, agent.isRunning(id)) };
}

/** Moves a session to the store's trash; a running session is refused, naming the fix. */
export async function deleteSession(
  store: JournalStore,
  agent: AgentControl,
  req: DeleteSessionRequest,
  signal: AbortSignal,
): Promise<MessageInitShape<typeof DeleteSessionResponseSchema>> {
  const journal = await abortable(store.open(req.sessionId), signal);
  const id = journal.header.sessionId;
  if (agent.isRunning(id)) {
    throw new ConnectError(
      `session ${id} is running a turn: cancel it (Cancel) or wait for the turn to end, then delete it`,
      Code.FailedPrecondition,
    );
  }
  return { trashPath: await store.remove(id) };
}
