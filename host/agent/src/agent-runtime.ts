import { defaultOutageMs } from './outage-retry.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stat } from 'node:fs/promises';
import type { ContentBlock } from '@dsh/gen/content';
import type { PromptMode, RespondRequest } from '@dsh/gen/service';
import type { JournalStore } from '@dsh/journal';
import { contextBudgetFor, type ModelProvider } from '@dsh/providers';
import { noAllowedPaths, type AllowedPaths, type ApprovalPolicy } from './approval-settings.js';
import { createToolRuntime, type Tool } from '@dsh/tools';
import { AgentError } from './agent-error.js';
import { openAgentSession, type AgentSession } from './agent-session.js';
import type { QueuedInputFacts } from './input-queue.js';
import { waitingInputs } from './waiting-inputs.js';
import { createOwnedSessions, type LocalSessions } from './owned-sessions.js';
import type { AgentInput, InputAnswers, SessionOwnership } from './session-ownership.js';
import { systemPrompt } from './system-prompt.js';

/** What the agent runtime of a host is built from. */
export interface AgentRuntimeOptions {
  readonly store: JournalStore;
  /** The model for a session, chosen by the model name in its journal header. */
  readonly provider: ModelProvider | ((sessionModel: string) => ModelProvider);
  readonly tools: readonly Tool[];
  /** Per-tool approval policy overrides (see `approvalVerdict` for the defaults). */
  readonly approvals?: Readonly<Record<string, ApprovalPolicy>>;
  /** Folders outside a session's cwd that file tools use without asking. */
  readonly allowPaths?: AllowedPaths;
  /** Folder under which each session spills long output (default: the OS temp dir). */
  readonly spillRoot?: string;
  /** Most model steps per turn (default 100). */
  readonly maxSteps?: number;
  /** How long an append retries while the store is unreachable (default 60 s). */
  readonly outageMs?: number;
  /**
   * The context budget of a model, by the name its provider gives it (default:
   * `contextBudgetFor(model)`, the known window of common models less room for the answer).
   */
  readonly contextBudget?: (model: string) => number;
  /**
   * Which host runs each session when several share the store (`SessionOwnership`):
   * input for a session another host owns is forwarded there. None for a host alone on
   * its store (the file store's data-dir lock keeps other hosts away).
   */
  readonly ownership?: SessionOwnership;
}

/** A change of a session's running state. */
export interface AgentStatus {
  readonly sessionId: string;
  readonly running: boolean;
}

/**
 * The agent control of a host, plus what tests and shutdown need. It has the shape of
 * the `AgentControl` that `@dsh/server` declares, so the CLI hands it to `startServer`
 * without either package importing the other; methods throw `AgentError` (refused
 * input) or `JournalError`, which the server maps to the Connect code a client acts on.
 */
export interface AgentRuntime {
  readonly enabled: boolean;
  prompt(
    sessionId: string,
    input: { content: ContentBlock[]; mode: PromptMode },
  ): Promise<{ started: boolean; queuePosition: number; queueId: string }>;
  cancel(
    sessionId: string,
  ): Promise<{ cancelled: boolean; cleared: number; clearedInputs: QueuedInputFacts[] }>;
  respond(sessionId: string, response: RespondRequest['response']): Promise<void>;
  /** Compacts the session's model history now when idle, else before the next model step. */
  compact(sessionId: string, instruction: string): Promise<{ started: boolean }>;
  editQueue(
    sessionId: string,
    queueId: string,
    content: ContentBlock[],
  ): Promise<{ previous: ContentBlock[] }>;
  /**
   * Opens every writable session whose journal shows inputs still waiting in its queue
   * (the host stopped while they were queued), so they run again in order. Resolves to
   * the ids of the sessions it resumed.
   */
  resume(): Promise<string[]>;
  isRunning(sessionId: string): boolean;
  /** Observes running-state changes; returns the function that stops observing. */
  onStatus(listener: (status: AgentStatus) => void): () => void;
  /** Resolves when the session has no running turn and nothing queued. */
  idle(sessionId: string): Promise<void>;
  /** Cancels every running turn. */
  close(): Promise<void>;
}

/**
 * Runs one agent per session over the journal store, opened on first use: Prompt queues
 * or steers, Cancel aborts, Respond answers approvals and questions, and running-state
 * changes go to `onStatus` listeners.
 */
export function createAgentRuntime(options: AgentRuntimeOptions): AgentRuntime {
  const runtime = createToolRuntime(options.tools);
  const sessions = new Map<string, Promise<AgentSession>>();
  const running = new Set<string>();
  const listeners = new Set<(status: AgentStatus) => void>();

  const notify = (status: AgentStatus): void => {
    for (const listener of listeners) listener(status);
  };
  const setStatus = (sessionId: string, isRunning: boolean): void => {
    if (isRunning) running.add(sessionId);
    else running.delete(sessionId);
    options.ownership?.announce(sessionId, isRunning);
    notify({ sessionId, running: isRunning });
  };

  function session(sessionId: string): Promise<AgentSession> {
    let opened = sessions.get(sessionId);
    if (!opened) {
      opened = options.store.open(sessionId).then(async (journal) => {
        // Other hosts may have appended since this host opened the journal: start from its end.
        if (options.ownership !== undefined) await journal.head();
        const provider =
          typeof options.provider === 'function'
            ? options.provider(journal.header.model)
            : options.provider;
        return openAgentSession({
          journal,
          provider,
          runtime,
          approvals: options.approvals ?? {},
          allowPaths: options.allowPaths ?? noAllowedPaths,
          systemPrompt: systemPrompt(journal.header.cwd),
          spillDir: join(options.spillRoot ?? join(tmpdir(), 'dsh-spill'), sessionId),
          maxSteps: options.maxSteps ?? 100,
          outageMs: options.outageMs ?? defaultOutageMs,
          contextBudget: (options.contextBudget ?? defaultBudget)(provider.model),
          onStatus: (isRunning) => setStatus(sessionId, isRunning),
        });
      });
      sessions.set(sessionId, opened);
      opened.catch(() => sessions.delete(sessionId));
    }
    return opened;
  }

  async function runLocal<K extends AgentInput['kind']>(
    sessionId: string,
    input: Extract<AgentInput, { kind: K }>,
  ): Promise<InputAnswers[K]> {
    const agent = await session(sessionId);
    const i = input as AgentInput;
    switch (i.kind) {
      case 'prompt':
        return (await agent.prompt(i.content, i.mode)) as InputAnswers[K];
      case 'cancel':
        return (await agent.cancel()) as InputAnswers[K];
      case 'respond':
        agent.respond(i.response);
        return undefined as InputAnswers[K];
      case 'compact':
        return (await agent.compact(i.instruction)) as InputAnswers[K];
      case 'editQueue':
        return (await agent.editQueue(i.queueId, i.content)) as InputAnswers[K];
      default:
        return i satisfies never;
    }
  }

  const localSessions: LocalSessions = {
    run: runLocal,
    busy: (sessionId) => running.has(sessionId),
    open: async (sessionId) => void (await session(sessionId)),
    evict(sessionId) {
      if (!running.has(sessionId)) sessions.delete(sessionId);
    },
    async abort(sessionId) {
      const opened = sessions.get(sessionId);
      if (opened) await (await opened).cancel().catch(() => undefined);
    },
  };
  const owned =
    options.ownership === undefined
      ? undefined
      : createOwnedSessions(options.ownership, localSessions, (sessionId, isRunning) => {
          if (!running.has(sessionId)) notify({ sessionId, running: isRunning });
        });
  if (owned !== undefined) {
    listeners.add((status) => {
      if (!status.running) owned.idle(status.sessionId);
    });
  }
  const route: LocalSessions['run'] = (sessionId, input) =>
    owned === undefined ? runLocal(sessionId, input) : owned.route(sessionId, input);

  return {
    enabled: true,
    async prompt(sessionId, input) {
      if (input.content.length === 0) {
        throw new AgentError(
          'invalid_argument',
          'a prompt needs content: send at least one text block',
        );
      }
      const { cwd } = (await options.store.open(sessionId)).header;
      if (!(await isDirectory(cwd))) {
        throw new AgentError(
          'failed_precondition',
          `session ${sessionId} works in ${cwd}, which is not a folder on this host: ` +
            'create a new session to run the agent here',
        );
      }
      return route(sessionId, { kind: 'prompt', content: input.content, mode: input.mode });
    },
    cancel: (sessionId) => route(sessionId, { kind: 'cancel' }),
    respond: (sessionId, response) => route(sessionId, { kind: 'respond', response }),
    async compact(sessionId, instruction) {
      if (instruction.length > maxInstructionChars) {
        throw new AgentError(
          'invalid_argument',
          `a compaction instruction has at most ${maxInstructionChars} characters, not ${instruction.length}: shorten it`,
        );
      }
      return route(sessionId, { kind: 'compact', instruction });
    },
    editQueue: (sessionId, queueId, content) =>
      route(sessionId, { kind: 'editQueue', queueId, content }),
    async resume() {
      const resumed: string[] = [];
      for (const summary of await options.store.list()) {
        if (summary.readOnly || summary.error !== undefined) continue;
        // A store that knows the queue is empty spares opening the journal to look.
        if (summary.waiting === 0) continue;
        try {
          const id = summary.header.sessionId;
          if (!(await hasWaitingInput(options.store, id))) continue;
          if (owned === undefined) await session(id);
          else if (!(await owned.adoptIfFree(id))) continue;
          resumed.push(id);
        } catch (cause) {
          console.error(`dsh: cannot resume the queue of ${summary.header.sessionId}:`, cause);
        }
      }
      return resumed;
    },
    isRunning: (sessionId) =>
      running.has(sessionId) || options.ownership?.runningElsewhere(sessionId) === true,
    onStatus(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async idle(sessionId) {
      const opened = sessions.get(sessionId);
      if (opened) await (await opened).idle();
    },
    async close() {
      const open = await Promise.allSettled(sessions.values());
      await Promise.all(open.map((s) => (s.status === 'fulfilled' ? s.value.cancel() : undefined)));
    },
  };
}

/** Longest instruction a compaction request may carry (the proto says so). */
const maxInstructionChars = 4096;

function defaultBudget(model: string): number {
  return contextBudgetFor(model).budget;
}

/** Whether the tail page (baseline plus its events) leaves any input waiting in the queue. */
async function hasWaitingInput(store: JournalStore, sessionId: string): Promise<boolean> {
  const journal = await store.open(sessionId);
  return waitingInputs(await journal.page(undefined, 1)).length > 0;
}

async function isDirectory(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isDirectory();
  } catch {
    return false;
  }
}
