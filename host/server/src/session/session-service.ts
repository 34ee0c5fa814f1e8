import { stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { isAbsolute } from 'node:path';
import { Code, ConnectError, type ServiceImpl } from '@connectrpc/connect';
import { SessionService } from '@dsh/gen/service';
import { formatVersion, JournalError, type JournalStore } from '@dsh/journal';
import { abortable } from './abortable.js';
import type { AgentControl } from './agent-control.js';
import { follow, type FollowOptions } from './follow.js';
import { newestFirst, sessionSummary } from './session-summary.js';
import type { StreamCounter } from './stream-counter.js';
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
  /** Follow and WatchSessions tuning (heartbeat, queue limit). */
  readonly follow: FollowOptions;
  /** Counts open Follow and WatchSessions streams (for leak checks). */
  readonly streams?: StreamCounter;
}

const defaultPageMessages = 50;
const maxPageMessages = 1_000;

/**
 * The `SessionService` implementation over a journal store and an agent control.
 * Handlers throw `JournalError` or `ConnectError`; the server's error interceptor maps
 * them to Connect codes in one place.
 */
export function createSessionService(deps: SessionServiceDeps): ServiceImpl<typeof SessionService> {
  const { store, agent } = deps;
  return {
    describeHost() {
      const capabilities = ['page', 'follow', 'watch', 'create'];
      if (agent.enabled) capabilities.push('prompt', 'cancel', 'respond', 'edit_queue');
      return {
        version: deps.version,
        formatVersion,
        homeDir: homedir(),
        capabilities,
        defaultCwd: deps.defaultCwd,
        defaultModel: deps.defaultModel,
      };
    },

    async listSessions(_req, ctx) {
      const listed = (await abortable(store.list(), ctx.signal)).sort(newestFirst);
      return {
        sessions: listed.map((s) => sessionSummary(s, agent.isRunning(s.header.sessionId))),
      };
    },

    watchSessions(_req, ctx) {
      const options = { heartbeatMs: deps.follow.heartbeatMs };
      return watchSessions(store, agent, options, ctx.signal, deps.streams);
    },

    async createSession(req, ctx) {
      const cwd = req.cwd === '' ? deps.defaultCwd : req.cwd;
      await abortable(requireDirectory(cwd), ctx.signal);
      if (req.parentId !== '') await abortable(store.open(req.parentId), ctx.signal);
      const journal = await abortable(
        store.create({
          cwd,
          parentId: req.parentId === '' ? undefined : req.parentId,
          model: req.model === '' ? deps.defaultModel : req.model,
          title: req.title,
        }),
        ctx.signal,
      );
      return { session: sessionSummary(journal, agent.isRunning(journal.header.sessionId)) };
    },

    async page(req, ctx) {
      const maxMessages = req.maxMessages === 0 ? defaultPageMessages : req.maxMessages;
      if (maxMessages > maxPageMessages) {
        throw new JournalError(
          'invalid_argument',
          `max_messages ${maxMessages} is too large: ask for at most ${maxPageMessages} and page on with before_seq`,
        );
      }
      const journal = await abortable(store.open(req.sessionId), ctx.signal);
      if (req.beforeSeq !== undefined && req.beforeSeq > journal.length) {
        throw new JournalError(
          'invalid_argument',
          `before_seq ${req.beforeSeq} is past the end of session ${req.sessionId}: it has ` +
            `${journal.length} events; leave before_seq out for the tail page`,
        );
      }
      const page = await abortable(journal.page(req.beforeSeq, maxMessages), ctx.signal);
      return {
        events: page.events.map((event) => ({ event })),
        hasMore: page.hasMore,
        baseline: page.baseline,
      };
    },

    async *follow(req, ctx) {
      const journal = await abortable(store.open(req.sessionId), ctx.signal);
      yield* follow(journal, req.afterSeq, deps.follow, ctx.signal, deps.streams);
    },

    async prompt(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      if (req.content.length === 0) {
        throw new ConnectError(
          'the prompt has no content: send at least one text block',
          Code.InvalidArgument,
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
        throw new ConnectError(
          'the response is empty: set approval or question',
          Code.InvalidArgument,
        );
      }
      await agent.respond(req.sessionId, req.response);
      return {};
    },

    async editQueue(req, ctx) {
      await abortable(store.open(req.sessionId), ctx.signal);
      if (req.queueId === '') {
        throw new ConnectError(
          'the edit names no queued input: set queue_id (from input/queued)',
          Code.InvalidArgument,
        );
      }
      return await agent.editQueue(req.sessionId, req.queueId, req.content);
    },
  };
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
