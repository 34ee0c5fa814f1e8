import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '@dsh/gen/content';
import { PromptMode, type RespondRequest } from '@dsh/gen/service';
import type { Journal } from '@dsh/journal';
import type { ModelProvider } from '@dsh/providers';
import type { ToolRuntime } from '@dsh/tools';
import { AgentError } from './agent-error.js';
import { answerPending } from './answer-pending.js';
import { approvalVerdict } from './approval-policy.js';
import { type AllowedPaths, type ApprovalPolicy } from './approval-settings.js';
import { recoverDanglingTurn } from './dangling-turn.js';
import { createEventRecorder, type EventRecorder } from './event-recorder.js';
import { createJobDriver } from './job-driver.js';
import { fitPayloads } from './fit-payloads.js';
import { createInputQueue, type QueuedInputFacts } from './input-queue.js';
import { createLeftOpenTurn } from './left-open-turn.js';
import { openModelContext } from './model-context.js';
import { createPendingInteractions, type PendingInteractions } from './pending-interactions.js';
import { checkCompactable } from './run-compaction.js';
import type { TurnSession } from './run-turn.js';
import type { TurnScope } from './tool-call-runner.js';
import { waitingInputs } from './waiting-inputs.js';

/** What an agent session is built from. */
export interface AgentSessionOptions {
  readonly journal: Journal;
  readonly provider: ModelProvider;
  readonly runtime: ToolRuntime;
  readonly approvals: Readonly<Record<string, ApprovalPolicy>>;
  readonly allowPaths: AllowedPaths;
  readonly systemPrompt: string;
  readonly spillDir: string;
  /** Most model steps one turn may take before it ends with an `agent/error`. */
  readonly maxSteps: number;
  /** The most tokens one model request may carry; the history is compacted to keep it. */
  readonly contextBudget: number;
  /** How long an append retries while the store is unreachable before the turn stops. */
  readonly outageMs: number;
  readonly onStatus: (running: boolean) => void;
}

/** The agent of one session: its input queues, the running turn and pending answers. */
export interface AgentSession {
  readonly running: boolean;
  prompt(
    content: ContentBlock[],
    mode: PromptMode,
  ): Promise<{ started: boolean; queuePosition: number; queueId: string }>;
  /**
   * Clears queued and steering input (recorded as `input/unqueued` CLEARED), aborts the
   * running turn and waits for its `turn/end`; returns the inputs it cleared, in order.
   */
  cancel(): Promise<{ cancelled: boolean; cleared: number; clearedInputs: QueuedInputFacts[] }>;
  /** Replaces a waiting input's content (in place), or removes it when `content` is empty. */
  editQueue(queueId: string, content: ContentBlock[]): Promise<{ previous: ContentBlock[] }>;
  respond(response: RespondRequest['response']): void;
  /**
   * Compacts the model's history with `instruction` for the summary: now when idle, else
   * before the running turn's next model step.
   */
  compact(instruction: string): Promise<{ started: boolean }>;
  /** Resolves when no turn runs and nothing is queued. */
  idle(): Promise<void>;
}

/**
 * The scope of each turn's tool calls: one set of pending interactions, one set of tools
 * allowed for the session and one id counter, shared by every turn of the session.
 */
function toolScopes(
  options: AgentSessionOptions,
  recorder: EventRecorder,
  pending: PendingInteractions,
): TurnSession['toolScope'] {
  const { journal, runtime } = options;
  const sessionAllowed = new Set<string>();
  let nextId = 0;
  return (turn: number, signal: AbortSignal): TurnScope => ({
    sessionId: journal.header.sessionId,
    cwd: journal.header.cwd,
    spillDir: options.spillDir,
    turn,
    signal,
    recorder,
    pending,
    runtime,
    verdict: async (name, args) => {
      const verdict = await approvalVerdict(
        name,
        args,
        { cwd: journal.header.cwd, spillDir: options.spillDir },
        { overrides: options.approvals, allowPaths: options.allowPaths },
      );
      // "Allow for this session" answers an ask; it never lifts a deny.
      return verdict.policy === 'ask' && sessionAllowed.has(name)
        ? { policy: 'allow', reason: '' }
        : verdict;
    },
    allowForSession: (name) => sessionAllowed.add(name),
    newId: (prefix) => `${prefix}-${turn}-${++nextId}-${randomUUID().slice(0, 8)}`,
  });
}

/** Refuses input to a read-only session, naming what it cannot do. */
function checkWritable(journal: Journal, what: string): void {
  if (!journal.readOnly) return;
  throw new AgentError(
    'failed_precondition',
    `session ${journal.header.sessionId} is read-only: it ${what}`,
  );
}

/** Opens the agent for a session, folding its journal into the model's conversation once. */
export async function openAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { journal, provider, runtime } = options;
  const sessionId = journal.header.sessionId;
  await recoverDanglingTurn(journal);
  // One read of the tail page serves both the model's history and the waiting inputs.
  const tail = journal.length === 0 ? undefined : await journal.page(undefined, 1);
  const context = await openModelContext({
    journal,
    provider,
    budget: options.contextBudget,
    systemPrompt: options.systemPrompt,
    spillDir: options.spillDir,
    tail,
  });
  const recorder = createEventRecorder(
    journal,
    (events) => context.history.add(events),
    (payloads) => fitPayloads(payloads, options.spillDir),
    options.outageMs,
  );
  const pending = createPendingInteractions();
  const inputs = createInputQueue(
    sessionId,
    recorder,
    tail === undefined ? [] : waitingInputs(tail),
  );
  const leftOpen = createLeftOpenTurn(journal, recorder);
  /** A compaction asked for while a turn runs: it runs before that turn's next step. */
  let requested: { instruction: string } | undefined;
  const takeRequested = (): { instruction: string } | undefined => {
    const asked = requested;
    requested = undefined;
    return asked;
  };
  const turns: TurnSession = {
    journal,
    provider,
    recorder,
    context,
    inputs,
    leftOpen,
    maxSteps: options.maxSteps,
    takeRequested,
    fitScope: (turn, signal) => ({
      context,
      provider,
      recorder,
      systemPrompt: options.systemPrompt,
      tools: runtime.definitions(),
      cwd: journal.header.cwd,
      turn,
      signal,
    }),
    toolScope: toolScopes(options, recorder, pending),
  };
  const driver = createJobDriver(turns, context.history.lastTurn, options.onStatus);

  const session: AgentSession = {
    get running() {
      return driver.active !== undefined;
    },
    async prompt(content, mode) {
      checkWritable(journal, 'cannot take input');
      if (driver.active) {
        const steer = mode === PromptMode.STEER;
        const input = await inputs.enqueue(content, steer);
        const position = steer ? 0 : inputs.position(input);
        return { started: false, queuePosition: position, queueId: input.queueId ?? '' };
      }
      await driver.start({ content, source: 'user' });
      return { started: true, queuePosition: 0, queueId: '' };
    },
    async cancel() {
      requested = undefined;
      const clearedInputs = await inputs.clear();
      const cleared = { cleared: clearedInputs.length, clearedInputs };
      const turn = driver.active;
      if (!turn) return { cancelled: false, ...cleared };
      turn.controller.abort();
      await turn.done;
      return { cancelled: true, ...cleared };
    },
    editQueue: (queueId, content) => inputs.edit(queueId, content),
    respond: (response) => answerPending(pending, sessionId, response),
    async compact(instruction) {
      checkWritable(journal, 'cannot be compacted');
      if (driver.active) {
        requested = { instruction };
        return { started: false };
      }
      checkCompactable(sessionId, context.history);
      // Nobody waits for a compaction job to record; a turn queued behind it reports to its own caller.
      driver.start({ compact: instruction }).catch(() => undefined);
      return { started: true };
    },
    idle: () => driver.idle(),
  };
  const replay = inputs.shift();
  if (replay !== undefined && !journal.readOnly) {
    driver.start(replay).catch((cause: unknown) => {
      console.error(`dsh: cannot replay the queue of session ${sessionId}:`, cause);
    });
  }
  return session;
}
