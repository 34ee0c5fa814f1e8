import { randomUUID } from 'node:crypto';
import type { ContentBlock } from '@dsh/gen/content';
import { AgentError } from './agent-error.js';
import { ApprovalDecision, CompactionReason, TurnEndReason, UnqueueReason } from '@dsh/gen/events';
import { PromptMode, type RespondRequest } from '@dsh/gen/service';
import {
  JournalError,
  queuedInputs,
  type EventPayload,
  type Journal,
  type WaitingInput,
} from '@dsh/journal';
import { type ModelProvider, ProviderError } from '@dsh/providers';
import { type AllowedPaths, type ApprovalPolicy } from './approval-settings.js';
import type { ToolRuntime } from '@dsh/tools';
import { approvalVerdict } from './approval-policy.js';
import { danglingTurnClosing, recoverDanglingTurn, type DanglingReason } from './dangling-turn.js';
import { createEventRecorder } from './event-recorder.js';
import { fitPayloads } from './fit-payloads.js';
import { compact, fitContext, openModelContext, type FitScope } from './model-context.js';
import { runModelStep } from './model-step.js';
import { payloads } from './payloads.js';
import { createPendingInteractions } from './pending-interactions.js';
import { runToolCall, type TurnScope } from './tool-call-runner.js';

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
  readonly onStatus: (running: boolean) => void;
}

/** An input waiting in the queue, as Cancel returns it. */
export interface QueuedInputFacts {
  readonly queueId: string;
  readonly content: ContentBlock[];
  readonly steer: boolean;
  /** Seq of its `input/queued`; 0 while that is not durable yet. */
  readonly seq: number;
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

/** The reason a turn's journal closes with when the host could not write its end. */
function writeFailure(turn: number, cause: unknown): DanglingReason {
  const why = cause instanceof Error ? cause.message : String(cause);
  return {
    message:
      `Turn ${turn} stopped: the host could not write to this session's journal (${why}). ` +
      'Calls still open were interrupted; send a new prompt to continue.',
    code: 'journal_write_failed',
  };
}

/** Facts about the machine the model gets once, at the start of a session's first turn. */
function environmentContext(cwd: string): EventPayload {
  const facts = { cwd, platform: process.platform, date: new Date().toISOString().slice(0, 10) };
  const text = `Working directory: ${facts.cwd}\nPlatform: ${facts.platform}\nToday's date: ${facts.date}`;
  return payloads.contextMessage(text, 'environment', JSON.stringify(facts));
}

interface Input {
  readonly content: ContentBlock[];
  readonly source: string;
  /** Set for input that waited in the queue: its `input/queued` id. */
  readonly queueId?: string;
  readonly steer?: boolean;
  /** Seq of its `input/queued` once durable. */
  seq?: number;
}

/** The `input/unqueued` that precedes the events carrying a waiting input, if it waited. */
function unqueued(input: Input, reason: UnqueueReason): EventPayload[] {
  return input.queueId === undefined ? [] : [payloads.inputUnqueued(input.queueId, reason)];
}

function facts(input: Input): QueuedInputFacts {
  return {
    queueId: input.queueId ?? '',
    content: input.content,
    steer: input.steer ?? false,
    seq: input.seq ?? 0,
  };
}

/** The inputs the journal shows waiting: the tail page's baseline queue, folded over its events. */
export async function waitingInputs(journal: Journal): Promise<readonly WaitingInput[]> {
  const page = await journal.page(undefined, 1);
  let waiting: readonly WaitingInput[] = page.baseline?.queue ?? [];
  for (const event of page.events) waiting = queuedInputs.fold(waiting, event);
  return waiting;
}

/** Work the session runs in order: a turn, or a compaction a person asked for while idle. */
type Job = Input | { readonly compact: string };

/** Opens the agent for a session, folding its journal into the model's conversation once. */
export async function openAgentSession(options: AgentSessionOptions): Promise<AgentSession> {
  const { journal, provider, runtime } = options;
  const sessionId = journal.header.sessionId;
  await recoverDanglingTurn(journal);
  const context = await openModelContext({
    journal,
    provider,
    budget: options.contextBudget,
    systemPrompt: options.systemPrompt,
    spillDir: options.spillDir,
  });
  let lastTurn = context.history.lastTurn;
  const recorder = createEventRecorder(
    journal,
    (events) => context.history.add(events),
    (payloads) => fitPayloads(payloads, options.spillDir),
  );
  const pending = createPendingInteractions();
  const sessionAllowed = new Set<string>();
  // Inputs the journal shows waiting (a host stopped while they were queued) run again,
  // in order, as turns of their own: no turn is running to steer.
  let queue: Input[] = (await waitingInputs(journal)).map((input) => ({
    content: [...input.content],
    source: 'queued',
    queueId: input.queueId,
    steer: false,
    seq: input.seq,
  }));
  let steering: Input[] = [];
  let active: { controller: AbortController; done: Promise<void> } | undefined;
  let drive: Promise<void> = Promise.resolve();
  let nextId = 0;
  /** Set when a turn could not record its end: the next turn closes it first. */
  let leftOpen: DanglingReason | undefined;
  /** A compaction asked for while a turn runs: it runs before that turn's next step. */
  let requested: { instruction: string } | undefined;
  const fitScope = (turn: number, signal: AbortSignal): FitScope => ({
    context,
    provider,
    recorder,
    systemPrompt: options.systemPrompt,
    tools: runtime.definitions(),
    cwd: journal.header.cwd,
    turn,
    signal,
  });

  /** Closes a turn the journal still shows open after a failed write; throws while it cannot. */
  async function closeLeftOpen(): Promise<void> {
    if (leftOpen === undefined) return;
    const closing = await danglingTurnClosing(journal, leftOpen);
    if (closing.length > 0) await recorder.record(closing);
    leftOpen = undefined;
  }

  async function runTurn(input: Input, started: (error?: unknown) => void): Promise<void> {
    const turn = ++lastTurn;
    const controller = new AbortController();
    const signal = controller.signal;
    const scope: TurnScope = {
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
    };
    let finish!: () => void;
    active = { controller, done: new Promise((resolve) => (finish = resolve)) };
    let reason = TurnEndReason.COMPLETED;
    let opened = false;
    try {
      await closeLeftOpen();
      await recorder.record([
        ...unqueued(input, UnqueueReason.STARTED),
        payloads.userMessage(input.content, input.source),
        payloads.turnStart(turn),
        ...(turn === 1 ? [environmentContext(journal.header.cwd)] : []),
      ]);
      opened = true;
      started();
      for (let step = 0; ; step++) {
        const steer = steering;
        steering = [];
        if (steer.length > 0) {
          await recorder.record(
            steer.flatMap((s) => [
              ...unqueued(s, UnqueueReason.STEERED),
              payloads.steeringMessage(turn, s.content, s.source),
            ]),
          );
        }
        if (step >= options.maxSteps) {
          const message = `The turn stopped after ${options.maxSteps} model steps without finishing; send a new prompt to continue.`;
          await recorder.record([payloads.agentError(message, 'step_limit')]);
          reason = TurnEndReason.ERROR;
          break;
        }
        const asked = requested;
        requested = undefined;
        const fitting = fitScope(turn, signal);
        const fit = await fitContext(fitting, asked);
        if (fit === 'aborted' || signal.aborted) break;
        if (fit === 'failed') {
          reason = TurnEndReason.ERROR;
          break;
        }
        await context.settled();
        const request = {
          model: provider.model,
          messages: context.messages(),
          tools: fitting.tools,
          signal,
          cwd: journal.header.cwd,
        };
        const result = await runModelStep(provider, request, { turn, step }, recorder);
        if (signal.aborted) break;
        await recorder.record([
          payloads.assistantMessage(
            { turn, step },
            result.content,
            result.usage,
            provider.model,
            result.finishReason,
          ),
        ]);
        for (const call of result.toolCalls) await runToolCall(scope, step, call);
        if (signal.aborted) break;
        if (result.toolCalls.length === 0 && steering.length === 0) break;
      }
    } catch (cause) {
      started(cause);
      if (opened && cause instanceof JournalError) {
        // The journal refused an event: stop what still runs, and close the turn the way
        // recovery would, so no call it left open shows as running.
        leftOpen = writeFailure(turn, cause);
        controller.abort();
      } else if (opened && !signal.aborted) {
        const error =
          cause instanceof ProviderError
            ? cause
            : {
                code: 'internal',
                message: `The agent failed: ${cause instanceof Error ? cause.message : String(cause)}`,
              };
        reason = TurnEndReason.ERROR;
        await recorder
          .record([payloads.agentError(error.message, error.code)])
          .catch(() => undefined);
      }
    } finally {
      started();
      if (!opened) lastTurn = turn - 1;
      else if (leftOpen !== undefined) {
        await closeLeftOpen().catch((cause: unknown) => {
          console.error(`dsh: cannot close turn ${turn} of ${sessionId}:`, cause);
        });
      } else {
        if (signal.aborted) reason = TurnEndReason.CANCELLED;
        await recorder.record([payloads.turnEnd(turn, reason)]).catch((cause: unknown) => {
          leftOpen = writeFailure(turn, cause);
          console.error(`dsh: cannot record the end of turn ${turn} of ${sessionId}:`, cause);
        });
      }
      if (!opened || leftOpen !== undefined) dropQueued(turn);
      finish();
    }
  }

  /** Input queued behind a turn the journal could not take would fail the same way. */
  function dropQueued(turn: number): void {
    if (queue.length === 0 && steering.length === 0) return;
    console.error(
      `dsh: session ${sessionId}: dropping ${queue.length + steering.length} queued input(s): ` +
        `turn ${turn} could not be written to the journal`,
    );
    const dropped = [...queue, ...steering].flatMap((input) =>
      unqueued(input, UnqueueReason.DROPPED),
    );
    queue = [];
    steering = [];
    // Best effort: the journal just refused a write; a restart replays what it still shows.
    if (dropped.length > 0) void recorder.record(dropped).catch(() => undefined);
  }

  /** Records an input that waits for the running turn; it joins its queue at once. */
  async function enqueue(content: ContentBlock[], steer: boolean): Promise<Input> {
    const queueId = `q-${randomUUID()}`;
    const input: Input = { content, source: steer ? 'user' : 'queued', queueId, steer };
    const recorded = recorder.record([payloads.inputQueued(queueId, content, steer)]);
    // The recorder appends in call order: a turn that takes this input records its
    // `input/unqueued` after this `input/queued`.
    (steer ? steering : queue).push(input);
    try {
      input.seq = (await recorded)[0]?.seq;
    } catch (cause) {
      queue = queue.filter((item) => item !== input);
      steering = steering.filter((item) => item !== input);
      throw cause;
    }
    return input;
  }

  /** A requested compaction between turns; like a turn, Cancel aborts it. */
  async function runCompaction(instruction: string): Promise<void> {
    const controller = new AbortController();
    let finish!: () => void;
    active = { controller, done: new Promise((resolve) => (finish = resolve)) };
    try {
      await closeLeftOpen();
      await compact(fitScope(lastTurn, controller.signal), CompactionReason.REQUESTED, instruction);
    } catch (cause) {
      console.error(`dsh: session ${sessionId}: the requested compaction failed:`, cause);
    } finally {
      finish();
    }
  }

  function start(first: Job): Promise<void> {
    let started!: (error?: unknown) => void;
    const recorded = new Promise<void>((resolve, reject) => {
      started = (error) => (error === undefined ? resolve() : reject(error));
    });
    options.onStatus(true);
    drive = (async () => {
      let next: Job | undefined = first;
      while (next) {
        if ('compact' in next) await runCompaction(next.compact);
        else await runTurn(next, started);
        const asked = requested;
        requested = undefined;
        next = asked !== undefined ? { compact: asked.instruction } : queue.shift();
      }
      active = undefined;
      options.onStatus(false);
    })();
    return recorded;
  }

  const session: AgentSession = {
    get running() {
      return active !== undefined;
    },
    async prompt(content, mode) {
      if (journal.readOnly) {
        throw new AgentError(
          'failed_precondition',
          `session ${journal.header.sessionId} is read-only: it cannot take input`,
        );
      }
      if (active) {
        const steer = mode === PromptMode.STEER;
        const input = await enqueue(content, steer);
        const position = steer ? 0 : queue.indexOf(input) + 1;
        return { started: false, queuePosition: position, queueId: input.queueId ?? '' };
      }
      await start({ content, source: 'user' });
      return { started: true, queuePosition: 0, queueId: '' };
    },
    async cancel() {
      const clearedInputs = [...queue, ...steering];
      queue = [];
      steering = [];
      requested = undefined;
      const records = clearedInputs.flatMap((input) => unqueued(input, UnqueueReason.CLEARED));
      if (records.length > 0) await recorder.record(records);
      const cleared = { cleared: clearedInputs.length, clearedInputs: clearedInputs.map(facts) };
      const turn = active;
      if (!turn) return { cancelled: false, ...cleared };
      turn.controller.abort();
      await turn.done;
      return { cancelled: true, ...cleared };
    },
    async editQueue(queueId, content) {
      const list = [queue, steering].find((inputs) => inputs.some((i) => i.queueId === queueId));
      const index = list?.findIndex((input) => input.queueId === queueId) ?? -1;
      const input = list?.[index];
      if (list === undefined || input === undefined) {
        throw new AgentError(
          'failed_precondition',
          `no input "${queueId}" is waiting in session ${sessionId}: ` +
            'it already started, or was removed or cleared',
        );
      }
      if (content.length === 0) {
        list.splice(index, 1);
        await recorder.record([payloads.inputUnqueued(queueId, UnqueueReason.REMOVED)]);
      } else {
        list[index] = { ...input, content };
        await recorder.record([payloads.inputQueued(queueId, content, input.steer ?? false)]);
      }
      return { previous: input.content };
    },
    respond(response) {
      switch (response.case) {
        case 'approval': {
          const { approvalId, decision } = response.value;
          if (decision === ApprovalDecision.CANCELLED) {
            throw new AgentError(
              'invalid_argument',
              'an approval decision must be allow, allow_session or deny',
            );
          }
          if (!pending.answerApproval(approvalId, decision)) {
            throw new AgentError(
              'failed_precondition',
              `no approval "${approvalId}" is pending in session ${sessionId}`,
            );
          }
          return;
        }
        case 'question': {
          const { questionId, answers, cancelled } = response.value;
          const value = cancelled ? ('cancelled' as const) : answers.map((a) => [...a.values]);
          if (!pending.answerQuestion(questionId, value)) {
            throw new AgentError(
              'failed_precondition',
              `no question "${questionId}" is pending in session ${sessionId}`,
            );
          }
          return;
        }
        case undefined:
          throw new AgentError(
            'invalid_argument',
            'a response must carry an approval or a question answer',
          );
        default: {
          const unknownCase: never = response;
          throw new AgentError(
            'invalid_argument',
            `unknown response ${JSON.stringify(unknownCase)}`,
          );
        }
      }
    },
    async compact(instruction) {
      if (journal.readOnly) {
        throw new AgentError(
          'failed_precondition',
          `session ${journal.header.sessionId} is read-only: it cannot be compacted`,
        );
      }
      if (active) {
        requested = { instruction };
        return { started: false };
      }
      if (context.history.entryCount === 0) {
        throw new AgentError(
          'failed_precondition',
          `session ${sessionId} has nothing to compact: no messages since ${
            context.history.summary === undefined ? 'it started' : 'its last compaction'
          }`,
        );
      }
      // Nobody waits for a compaction job to record; a turn queued behind it reports to its own caller.
      start({ compact: instruction }).catch(() => undefined);
      return { started: true };
    },
    idle: () => drive,
  };
  const replay = queue.shift();
  if (replay !== undefined && !journal.readOnly) {
    start(replay).catch((cause: unknown) => {
      console.error(`dsh: cannot replay the queue of session ${sessionId}:`, cause);
    });
  }
  return session;
}
