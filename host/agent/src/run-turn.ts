import { randomUUID } from 'node:crypto';
import { TurnEndReason } from '@dsh/gen/events';
import { JournalError, type EventPayload } from '@dsh/journal';
import { ProviderError } from '@dsh/providers';
import { approvalVerdict } from './approval-policy.js';
import type { AgentSessionOptions } from './agent-session.js';
import type { ConversationHistory } from './conversation-history.js';
import { danglingTurnClosing, type DanglingReason } from './dangling-turn.js';
import type { EventRecorder } from './event-recorder.js';
import type { InputQueues } from './input-queues.js';
import { payloads } from './payloads.js';
import type { PendingInteractions } from './pending-interactions.js';
import type { TurnScope } from './tool-call-runner.js';
import { runTurnSteps, type Input } from './turn-steps.js';

/** The running turn of a session: what cancel aborts and waits for. */
export interface ActiveTurn {
  readonly controller: AbortController;
  readonly done: Promise<void>;
}

/** What the turns of one session share, and the state each turn leaves to the next. */
export interface TurnHost {
  readonly options: AgentSessionOptions;
  readonly recorder: EventRecorder;
  readonly pending: PendingInteractions;
  readonly history: ConversationHistory;
  readonly inputs: InputQueues;
  /** Tools allowed "for this session" by an approval answer. */
  readonly sessionAllowed: Set<string>;
  /** The number of the last turn the journal opened. */
  lastTurn: number;
  active: ActiveTurn | undefined;
  /** Set when a turn could not record its end: the next turn closes it first. */
  leftOpen: DanglingReason | undefined;
  /** Counts ids handed out in the session, so two calls never share one. */
  nextId: number;
}

/**
 * Runs one turn: closes a turn a failed write left open, records the input and
 * `turn/start`, runs the model steps and records `turn/end` (cancelled, completed or
 * error). `started` settles once the turn is in the journal, with the error when it never
 * got there; a turn the journal refused drops the queued input, which would fail alike.
 */
export async function runTurn(
  host: TurnHost,
  input: Input,
  started: (error?: unknown) => void,
): Promise<void> {
  const { options, recorder } = host;
  const { cwd, sessionId } = options.journal.header;
  const turn = ++host.lastTurn;
  const controller = new AbortController();
  const signal = controller.signal;
  let finish!: () => void;
  host.active = { controller, done: new Promise((resolve) => (finish = resolve)) };
  let reason = TurnEndReason.COMPLETED;
  let opened = false;
  try {
    await closeLeftOpen(host);
    await recorder.record([
      payloads.userMessage(input.content, input.source),
      payloads.turnStart(turn),
      ...(turn === 1 ? [environmentContext(cwd)] : []),
    ]);
    opened = true;
    started();
    reason = await runTurnSteps({
      scope: turnScope(host, turn, signal),
      provider: options.provider,
      history: host.history,
      systemPrompt: options.systemPrompt,
      maxSteps: options.maxSteps,
      takeSteering: () => host.inputs.takeSteering(),
      hasSteering: () => host.inputs.hasSteering(),
    });
  } catch (cause) {
    started(cause);
    if (opened && cause instanceof JournalError) {
      // The journal refused an event: stop what still runs, and close the turn the way
      // recovery would, so no call it left open shows as running.
      host.leftOpen = writeFailure(turn, cause);
      controller.abort();
    } else if (opened && !signal.aborted) {
      const error = agentFailure(cause);
      reason = TurnEndReason.ERROR;
      await recorder
        .record([payloads.agentError(error.message, error.code)])
        .catch(() => undefined);
    }
  } finally {
    started();
    if (!opened) host.lastTurn = turn - 1;
    else if (host.leftOpen !== undefined) {
      await closeLeftOpen(host).catch((cause: unknown) => {
        console.error(`dsh: cannot close turn ${turn} of ${sessionId}:`, cause);
      });
    } else {
      if (signal.aborted) reason = TurnEndReason.CANCELLED;
      await recorder.record([payloads.turnEnd(turn, reason)]).catch((cause: unknown) => {
        host.leftOpen = writeFailure(turn, cause);
        console.error(`dsh: cannot record the end of turn ${turn} of ${sessionId}:`, cause);
      });
    }
    if (!opened || host.leftOpen !== undefined) dropQueued(host, turn);
    finish();
  }
}

/** Closes a turn the journal still shows open after a failed write; throws while it cannot. */
async function closeLeftOpen(host: TurnHost): Promise<void> {
  if (host.leftOpen === undefined) return;
  const closing = await danglingTurnClosing(host.options.journal, host.leftOpen);
  if (closing.length > 0) await host.recorder.record(closing);
  host.leftOpen = undefined;
}

/** Input queued behind a turn the journal could not take would fail the same way. */
function dropQueued(host: TurnHost, turn: number): void {
  const dropped = host.inputs.clear();
  if (dropped === 0) return;
  console.error(
    `dsh: session ${host.options.journal.header.sessionId}: dropping ${dropped} queued ` +
      `input(s): turn ${turn} could not be written to the journal`,
  );
}

/** The scope of turn `turn`'s tool calls. */
function turnScope(host: TurnHost, turn: number, signal: AbortSignal): TurnScope {
  const { options, sessionAllowed } = host;
  const { cwd, sessionId } = options.journal.header;
  return {
    sessionId,
    cwd,
    spillDir: options.spillDir,
    turn,
    signal,
    recorder: host.recorder,
    pending: host.pending,
    runtime: options.runtime,
    verdict: async (name, args) => {
      const verdict = await approvalVerdict(
        name,
        args,
        { cwd, spillDir: options.spillDir },
        { overrides: options.approvals, allowPaths: options.allowPaths },
      );
      // "Allow for this session" answers an ask; it never lifts a deny.
      return verdict.policy === 'ask' && sessionAllowed.has(name)
        ? { policy: 'allow', reason: '' }
        : verdict;
    },
    allowForSession: (name) => sessionAllowed.add(name),
    newId: (prefix) => `${prefix}-${turn}-${++host.nextId}-${randomUUID().slice(0, 8)}`,
  };
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

/** What a turn's failure becomes in the journal: a provider's own code, else `internal`. */
function agentFailure(cause: unknown): { code: string; message: string } {
  if (cause instanceof ProviderError) return cause;
  const why = cause instanceof Error ? cause.message : String(cause);
  return { code: 'internal', message: `The agent failed: ${why}` };
}

/** Facts about the machine the model gets once, at the start of a session's first turn. */
function environmentContext(cwd: string): EventPayload {
  const facts = { cwd, platform: process.platform, date: new Date().toISOString().slice(0, 10) };
  const text = `Working directory: ${facts.cwd}\nPlatform: ${facts.platform}\nToday's date: ${facts.date}`;
  return payloads.contextMessage(text, 'environment', JSON.stringify(facts));
}
