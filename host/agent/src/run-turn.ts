import { TurnEndReason, UnqueueReason } from '@dsh/gen/events';
import { JournalError, type EventPayload, type Journal } from '@dsh/journal';
import { ProviderError, type ModelProvider } from '@dsh/providers';
import type { EventRecorder } from './event-recorder.js';
import { unqueued, type Input, type InputQueue } from './input-queue.js';
import { writeFailure, type LeftOpenTurn } from './left-open-turn.js';
import { fitContext, type FitScope, type ModelContext } from './model-context.js';
import { runModelStep } from './model-step.js';
import { isOutage } from './outage-retry.js';
import { payloads } from './payloads.js';
import { runToolCall, type TurnScope } from './tool-call-runner.js';

/** What a turn of one session runs with. */
export interface TurnSession {
  readonly journal: Journal;
  readonly provider: ModelProvider;
  readonly recorder: EventRecorder;
  readonly context: ModelContext;
  readonly inputs: InputQueue;
  readonly leftOpen: LeftOpenTurn;
  /** Most model steps one turn may take before it ends with an `agent/error`. */
  readonly maxSteps: number;
  /** The scope the tool calls of `turn` run in. */
  toolScope(turn: number, signal: AbortSignal): TurnScope;
  fitScope(turn: number, signal: AbortSignal): FitScope;
  /** Takes the compaction a person asked for while the turn runs, if any. */
  takeRequested(): { instruction: string } | undefined;
}

/** Facts about the machine the model gets once, at the start of a session's first turn. */
function environmentContext(cwd: string): EventPayload {
  const facts = { cwd, platform: process.platform, date: new Date().toISOString().slice(0, 10) };
  const text = `Working directory: ${facts.cwd}\nPlatform: ${facts.platform}\nToday's date: ${facts.date}`;
  return payloads.contextMessage(text, 'environment', JSON.stringify(facts));
}

/**
 * Runs turn `turn` for `input` until the model stops calling tools, `controller` aborts,
 * or it fails, and records its end. `started` is called once its opening events are
 * durable (or with the error that kept them from being). Resolves whether the turn opened.
 */
export async function runTurn(
  session: TurnSession,
  turn: number,
  controller: AbortController,
  input: Input,
  started: (error?: unknown) => void,
): Promise<boolean> {
  const { journal, recorder, leftOpen } = session;
  const sessionId = journal.header.sessionId;
  const signal = controller.signal;
  let reason = TurnEndReason.COMPLETED;
  let opened = false;
  let failure: unknown;
  try {
    await leftOpen.close();
    await recorder.record([
      ...unqueued(input, UnqueueReason.STARTED),
      payloads.userMessage(input.content, input.source),
      payloads.turnStart(turn),
      ...(turn === 1 ? [environmentContext(journal.header.cwd)] : []),
    ]);
    opened = true;
    started();
    reason = await runSteps(session, turn, signal);
  } catch (cause) {
    failure = cause;
    started(cause);
    if (opened && cause instanceof JournalError) {
      // The journal refused an event: stop what still runs, and close the turn the way
      // recovery would, so no call it left open shows as running.
      leftOpen.mark(writeFailure(turn, cause));
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
    if (opened && leftOpen.reason !== undefined) {
      await leftOpen.close().catch((cause: unknown) => {
        console.error(`dsh: cannot close turn ${turn} of ${sessionId}:`, cause);
      });
    } else if (opened) {
      if (signal.aborted) reason = TurnEndReason.CANCELLED;
      await recorder.record([payloads.turnEnd(turn, reason)]).catch((cause: unknown) => {
        leftOpen.mark(writeFailure(turn, cause));
        console.error(`dsh: cannot record the end of turn ${turn} of ${sessionId}:`, cause);
      });
    }
    if (!opened && isOutage(failure) && input.queueId !== undefined) {
      // Still queued in the journal: it runs once the store is back.
      session.inputs.requeue(input);
    } else if ((!opened && !isOutage(failure)) || leftOpen.reason !== undefined) {
      // An outage keeps the queue: the turn closed once the store came back.
      session.inputs.drop(turn);
    }
  }
  return opened;
}

/** The model steps of one turn: steering, the step limit, fitting, the model, its tool calls. */
async function runSteps(
  session: TurnSession,
  turn: number,
  signal: AbortSignal,
): Promise<TurnEndReason> {
  const { journal, provider, recorder, context, inputs, maxSteps } = session;
  const scope = session.toolScope(turn, signal);
  for (let step = 0; ; step++) {
    const steer = inputs.takeSteering();
    if (steer.length > 0) {
      await recorder.record(
        steer.flatMap((s) => [
          ...unqueued(s, UnqueueReason.STEERED),
          payloads.steeringMessage(turn, s.content, s.source),
        ]),
      );
    }
    if (step >= maxSteps) {
      const message = `The turn stopped after ${maxSteps} model steps without finishing; send a new prompt to continue.`;
      await recorder.record([payloads.agentError(message, 'step_limit')]);
      return TurnEndReason.ERROR;
    }
    const fitting = session.fitScope(turn, signal);
    const fit = await fitContext(fitting, session.takeRequested());
    if (fit === 'aborted' || signal.aborted) return TurnEndReason.COMPLETED;
    if (fit === 'failed') return TurnEndReason.ERROR;
    await context.settled();
    const request = {
      model: provider.model,
      messages: context.messages(),
      tools: fitting.tools,
      signal,
      cwd: journal.header.cwd,
    };
    const result = await runModelStep(provider, request, { turn, step }, recorder);
    if (signal.aborted) return TurnEndReason.COMPLETED;
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
    if (signal.aborted) return TurnEndReason.COMPLETED;
    if (result.toolCalls.length === 0 && inputs.steeringCount === 0) return TurnEndReason.COMPLETED;
  }
}
