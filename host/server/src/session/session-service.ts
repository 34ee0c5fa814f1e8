import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { create } from '@bufbuild/protobuf';
import type { ServiceImpl } from '@connectrpc/connect';
import { ListSessionsResponseSchema, PageResponseSchema, SessionService } from '@dsh/gen/service';
import {
  formatVersion,
  JournalError,
  type EventPayload,
  type Journal,
  type JournalStore,
  type SessionSearch,
} from '@dsh/journal';
import { abortable } from './abortable.js';
import { agentRefusal, type AgentControl } from './agent-control.js';
import { encodedEntries, encodedSummaries, isBinaryWire, withEncoded } from './binary-wire.js';
import { SessionLister } from './list-sessions.js';
import { follow, type FollowOptions } from './follow.js';
import { searchSessions } from './search.js';
import { sessionSummary } from './session-summary.js';
import type { StreamCounter } from './stream-counter.js';
import { deleteSession, updateSession } from './update-session.js';
import { watchSessions } from './watch-sessions.js';

/** What the session service is built from. */
export interface SessionServiceDeps {
  readonly store: JournalStore;
  readonly agent: AgentControl;
  /** The host's software version, reported by DescribeHost. */
  readonly version: string;
  /** The cwd a session gets when CreateSession leaves it empty. */
  readonly defaultCwd: string;
  /** The model a session gets when CreateSession leaves it empty. */
  readonly defaultModel: string;
  /**
   * The models this host can run (DescribeHost `models`); CreateSession refuses any
   * other. Without it the host names only its default model and takes any name.
   */
  readonly models?: readonly string[];
  /** Follow and WatchSessions tuning (heartbeat, queue limit). */
  readonly follow: FollowOptions;
  /** Counts open Follow and WatchSessions streams (for leak checks). */
  readonly streams?: StreamCounter;
  /** The pause batching follow streams take between live frames (`BusyPacer.beat`). */
  readonly pace?: () => Promise<void> | undefined;
  /**
   * The context a session that continues `source` starts with (CreateSession
   * `continue_from`); without it the host refuses continue_from.
   */
  readonly continuation?: (source: Journal) => Promise<EventPayload[]>;
  /** Searches sessions without opening them; without it Search is failed_precondition. */
  readonly search?: SessionSearch;
}

/**
 * The `SessionService` implementation over a journal store and an agent control.
 * Handlers throw `JournalError` (or pass on an agent's refusal); the server's error
 * interceptor maps them to Connect codes in one place (`toConnectError`). `lister`
 * answers ListSessions; the server's direct path for Connect clients shares it.
 */
export function createSessionService(
  deps: SessionServiceDeps,
  lister = new SessionLister(deps.store, deps.agent),
): ServiceImpl<typeof SessionService> {
  const { store, agent } = deps;
  const models = offeredModels(deps);
  return {
    describeHost() {
      const capabilities = ['page', 'follow', 'watch', 'create', 'update', 'delete'];
      if (agent.enabled) capabilities.push('prompt', 'cancel', 'respond', 'compact', 'edit_queue');
      if (deps.search !== undefined) capabilities.push('search');
      return {
        version: deps.version,
        formatVersion,
        homeDir: homedir(),
        capabilities,
        defaultCwd: deps.defaultCwd,
        defaultModel: deps.defaultModel,
        models,
      };
    },

    async listSessions(req, ctx) {
      const { sessions, nextPageToken } = await lister.list(req, ctx.signal);
      if (!isBinaryWire(ctx.requestHeader)) return { sessions, nextPageToken };
      return withEncoded(
        create(ListSessionsResponseSchema, { nextPageToken }),
        encodedSummaries.field(1, sessions),
      );
    },

    watchSessions(req, ctx) {
      const options = {
        heartbeatMs: deps.follow.heartbeatMs,
        includeArchived: req.includeArchived,
        binary: isBinaryWire(ctx.requestHeader),
      };
      return watchSessions(store, agent, options, ctx.signal, deps.streams);
    },

    async createSession(req, ctx) {
      const source =
        req.continueFrom === ''
          ? undefined
          : await abortable(continued(req.continueFrom), ctx.signal);
      if (deps.models !== undefined && req.model !== '' && !models.includes(req.model)) {
        throw new JournalError(
          'invalid_argument',
          `model ${JSON.stringify(req.model)} is not one this host runs: use one of ` +
            `${models.map((m) => JSON.stringify(m)).join(', ')} (DescribeHost models), ` +
            'or add it to the models of the host config',
        );
      }
      const cwd = req.cwd !== '' ? req.cwd : (source?.header.cwd ?? deps.defaultCwd);
      await abortable(requireDirectory(cwd), ctx.signal);
      if (req.parentId !== '') await abortable(store.open(req.parentId), ctx.signal);
      const context = source === undefined ? [] : await deps.continuation!(source);
      const journal = await abortable(
        store.create({
          cwd,
          parentId: req.parentId === '' ? undefined : req.parentId,
          model: req.model === '' ? deps.defaultModel : req.model,
          title: req.title !== '' ? req.title : continuedTitle(source),
        }),
        ctx.signal,
      );
      if (context.length > 0) await journal.append(context);
      const summary = await abortable(journal.summary(), ctx.signal);
      return { session: sessionSummary(summary, agent.isRunning(journal.header.sessionId)) };
    },

    search: (req, ctx) => searchSessions(deps.search, req, ctx.signal),

    async page(req, ctx) {
      const page = await abortable(
        store.page(req.sessionId, req.beforeSeq, req.maxMessages),
        ctx.signal,
      );
      const binary = isBinaryWire(ctx.requestHeader);
      const response = create(PageResponseSchema, {
        events: binary ? [] : page.events.map((event) => ({ event })),
        hasMore: page.hasMore,
        baseline: page.baseline,
        endBaseline: page.endBaseline,
        baselinePending: page.baselinePending ?? false,
      });
      return binary ? withEncoded(response, encodedEntries.field(1, page.events)) : response;
    },

    async *follow(req, ctx) {
      const journal = await abortable(store.open(req.sessionId), ctx.signal);
      yield* follow(journal, req, deps.follow, ctx.signal, {
        counter: deps.streams,
        pace: deps.pace,
        binary: isBinaryWire(ctx.requestHeader),
      });
    },

    async prompt(req, ctx) {
      const journal = await abortable(store.open(req.sessionId), ctx.signal);
      const origin = journal.header.origin ?? '';
      if (origin !== '') {
        throw new JournalError(
          'read_only',
          `session ${req.sessionId} was imported from ${originName(origin)} and is read-only: ` +
            'continue it as a new session (CreateSession with continue_from) to send input',
        );
      }
      if (req.content.length === 0) {
        throw new JournalError(
          'invalid_argument',
          'the prompt has no content: send at least one text block',
        );
      }
      return await agent.prompt(req.sessionId, { content: req.content, mode: req.mode });
    },

    async cancel(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      return await agent.cancel(req.sessionId);
    },

    async respond(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      if (req.response.case === undefined) {
        throw new JournalError(
          'invalid_argument',
          'the response is empty: set approval or question',
        );
      }
      await agent.respond(req.sessionId, req.response);
      return {};
    },

    async compact(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      return await agent.compact(req.sessionId, req.instruction);
    },

    async editQueue(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      if (req.queueId === '') {
        throw new JournalError(
          'invalid_argument',
          'the edit names no queued input: set queue_id (from input/queued)',
        );
      }
      return await agent.editQueue(req.sessionId, req.queueId, req.content);
    },

    updateSession: (req, ctx) => updateSession(store, agent, req, ctx.signal),

    deleteSession: (req, ctx) => deleteSession(store, agent, req, ctx.signal),
  };

  /** The session a CreateSession continues, refused when this host cannot continue sessions. */
  async function continued(id: string): Promise<Journal> {
    const journal = await store.open(id);
    if (deps.continuation === undefined) {
      throw agentRefusal(
        'failed_precondition',
        'this host cannot continue sessions: create the session without continue_from',
      );
    }
    return journal;
  }
}

/** The title of a session that continues `source`. */
function continuedTitle(source: Journal | undefined): string | undefined {
  if (source === undefined) return undefined;
  const title = source.header.title.replace(/^(Claude Code|Codex): /, '');
  return `Continued: ${title || source.header.sessionId}`;
}

/** The name of an importer origin, for messages. */
function originName(origin: string): string {
  return origin === 'claude-code' ? 'Claude Code' : origin === 'codex' ? 'Codex' : origin;
}

async function requireDirectory(cwd: string): Promise<void> {
  const fail = (why: string): never => {
    throw new JournalError(
      'invalid_argument',
      `cwd ${JSON.stringify(cwd)} ${why}: give an existing directory`,
    );
  };
  if (!isAbsolute(cwd)) fail('is not an absolute path');
  let isDir = false;
  try {
    isDir = (await stat(cwd)).isDirectory();
  } catch {
    fail('does not exist');
  }
  if (!isDir) fail('is not a directory');
}

/** The models DescribeHost names: the default first, each once. */
function offeredModels(deps: SessionServiceDeps): string[] {
  const named = deps.models ?? [];
  return [...new Set([deps.defaultModel, ...named].filter((m) => m !== ''))];
}
