import { create, toBinary, type UnknownField } from '@bufbuild/protobuf';
import {
  ListSessionsResponseSchema,
  SessionService,
  type ListSessionsRequest,
  type ListSessionsRequestSchema,
  type SessionSummary,
} from '@dsh/gen/service';
import type { JournalStore, JournalSummary } from '@dsh/journal';
import { connectSerialization, type DirectUnary } from '../direct-unary.js';
import { abortable } from './abortable.js';
import type { AgentControl } from './agent-control.js';
import { encodedSummaries, withEncoded } from './binary-wire.js';
import { listPage } from './list-page.js';
import { sameElements } from './same-elements.js';
import { newestFirst, sessionSummary } from './session-summary.js';

/** One ListSessions answer: its page of wire summaries, newest first. */
export interface ListedSessions {
  readonly sessions: SessionSummary[];
  readonly nextPageToken: string;
}

/**
 * ListSessions over a store: the page of sessions a request asks for, newest first
 * (archived ones only when asked). The sorted order is kept while the store hands out
 * the same summaries (the file store's catalog does while nothing changed), so a list
 * asked again sorts nothing.
 */
export class SessionLister {
  /** The last JSON answer and the summaries it holds. */
  private lastJson: { sessions: SessionSummary[]; token: string; bytes: Uint8Array } | undefined;
  /** The last list sorted, per `includeArchived`. */
  private readonly lastSorted = new Map<
    boolean,
    { from: JournalSummary[]; sorted: JournalSummary[] }
  >();

  constructor(
    private readonly store: JournalStore,
    private readonly agent: AgentControl,
  ) {}

  async list(
    req: Pick<ListSessionsRequest, 'includeArchived' | 'pageSize' | 'pageToken'>,
    signal: AbortSignal,
  ): Promise<ListedSessions> {
    const listed = await abortable(this.store.list(), signal);
    const page = listPage(this.sorted(listed, req.includeArchived), req.pageSize, req.pageToken);
    const sessions = page.sessions.map((s) =>
      sessionSummary(s, this.agent.isRunning(s.header.sessionId)),
    );
    return { sessions, nextPageToken: page.nextPageToken };
  }

  /**
   * ListSessions for Connect clients, binary or JSON, answered directly
   * (`serveDirectUnary`): the same answer as the Connect handler's, its bytes kept while
   * the list is unchanged, so a list of 10,000 sessions asked again costs the host a
   * write.
   */
  unary(): DirectUnary<typeof ListSessionsRequestSchema> {
    return {
      method: SessionService.method.listSessions,
      answer: async (request, signal, format) => {
        const { sessions, nextPageToken } = await this.list(request, signal);
        if (format === 'binary') {
          return answerBytes(encodedSummaries.field(1, sessions), nextPageToken);
        }
        return this.jsonBytes(sessions, nextPageToken);
      },
    };
  }

  /** The JSON answer, kept for the last list answered while its summaries stay the same. */
  private jsonBytes(sessions: SessionSummary[], nextPageToken: string): Uint8Array {
    const last = this.lastJson;
    if (last?.token === nextPageToken && sameElements(last.sessions, sessions)) return last.bytes;
    const message = create(ListSessionsResponseSchema, { sessions, nextPageToken });
    const bytes = jsonAnswers.serialize(message);
    this.lastJson = { sessions, token: nextPageToken, bytes };
    return bytes;
  }

  private sorted(listed: JournalSummary[], includeArchived: boolean): JournalSummary[] {
    const last = this.lastSorted.get(includeArchived);
    if (last !== undefined && sameElements(last.from, listed)) return last.sorted;
    const result = listed.filter((s) => includeArchived || s.archived !== true).sort(newestFirst);
    this.lastSorted.set(includeArchived, { from: listed, sorted: result });
    return result;
  }
}

/** Connect's own JSON encoding of the answer, so both paths write the same text. */
const jsonAnswers = connectSerialization(SessionService.method.listSessions).getO(false);

/** Answer bytes by their summaries' joined encoding (kept by `encodedSummaries`). */
const answers = new WeakMap<Uint8Array, { token: string; bytes: Uint8Array }>();

function answerBytes(fields: UnknownField[], nextPageToken: string): Uint8Array {
  const data = fields[0]?.data;
  const known = data === undefined ? undefined : answers.get(data);
  if (known !== undefined && known.token === nextPageToken) return known.bytes;
  const message = withEncoded(create(ListSessionsResponseSchema, { nextPageToken }), fields);
  const bytes = toBinary(ListSessionsResponseSchema, message);
  if (data !== undefined) answers.set(data, { token: nextPageToken, bytes });
  return bytes;
}
