import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import type { EventPayload } from '@dsh/journal';
import type { ToolContext, ToolRunResult, ToolRuntime } from '@dsh/tools';
import { createApprovalGate, type GateScope } from './approval-gate.js';
import { createLiveOutput, type LiveOutput } from './live-output.js';
import { payloads, textBlock } from './payloads.js';

/** Everything a turn's tool calls share. */
export interface TurnScope extends GateScope {
  readonly sessionId: string;
  readonly cwd: string;
  readonly spillDir: string;
  readonly turn: number;
  readonly signal: AbortSignal;
  readonly runtime: ToolRuntime;
}

/** How long a cancelled tool gets to kill its processes before the turn ends anyway. */
const killGraceMs = 3000;

/** The result recorded for a call left open by a cancelled turn. */
export function interruptedResult(): ToolRunResult {
  return {
    content: [textBlock(interruptedMessage)],
    isError: true,
    error: { name: 'Interrupted', code: errorCodes.interrupted, message: interruptedMessage },
    metaJson: '',
  };
}

/**
 * Runs one top-level call: records `tool/call`, runs the tool with a context whose `gate`
 * applies the approval policy to it and to each of its sub-calls (recording `approval/*`),
 * whose `askUser` records `question/*`, whose `liveOutput` records coalesced `tool/output`
 * deltas (for the call and, apart, for each sub-call) and whose `dispatch` records
 * code-dispatch sub-calls, then records `tool/result`. A cancelled turn settles the call
 * as interrupted. Every delta lands before its call's settlement.
 */
export async function runToolCall(
  scope: TurnScope,
  step: number,
  call: { id: string; name: string; arguments: string },
): Promise<void> {
  const at = { turn: scope.turn, step };
  const { recorder } = scope;
  await recorder.record([payloads.toolCall(at, call.id, call.name, call.arguments)]);
  const settle = (result: ToolRunResult): Promise<unknown> =>
    recorder.record([payloads.toolResult(at, call.id, result)]);
  if (scope.signal.aborted) return void (await settle(interruptedResult()));

  let open = true;
  // Appends are serialised, so every delta lands before the settlement recorded after it.
  // A delta that cannot be written (disk full) is dropped: it is presentation only, and
  // the call's result fails to record the same way and ends the turn.
  const emitLive = (payload: EventPayload): void => {
    if (open) void recorder.record([payload]).catch(() => undefined);
  };
  const live = createLiveOutput(call.id, emitLive);
  const subLive = new Map<string, LiveOutput>();
  const closeSubLive = (callId: string): void => {
    subLive.get(callId)?.close();
    subLive.delete(callId);
  };
  const ctx: ToolContext = {
    cwd: scope.cwd,
    signal: scope.signal,
    sessionId: scope.sessionId,
    spillDir: scope.spillDir,
    callId: call.id,
    depth: 0,
    gate: createApprovalGate(scope),
    askUser: async (questions, signal) => {
      const questionId = scope.newId('question');
      const answer = scope.pending.waitQuestion(questionId, signal);
      await recorder.record([payloads.questionRequested(questionId, call.id, questions)]);
      const answers = await answer;
      await recorder.record([payloads.questionResolved(questionId, answers)]);
      return answers;
    },
    liveOutput: (text) => live.write(text),
  };
  // A sub-call event that cannot be written (disk full) is dropped here: the call's own
  // result fails to record the same way and ends the turn.
  const recordSub = (payload: EventPayload): void => {
    if (open) void recorder.record([payload]).catch(() => undefined);
  };
  ctx.dispatch = scope.runtime.createDispatch(ctx, {
    start: (sub) =>
      recordSub(payloads.codeDispatchStart(sub.parentCallId, sub.callId, sub.name, sub.arguments)),
    settle: (sub) => {
      closeSubLive(sub.callId);
      recordSub(payloads.codeDispatch(sub.parentCallId, sub.callId, sub.result));
    },
    output: (sub) => {
      let stream = subLive.get(sub.callId);
      if (stream === undefined && open) {
        stream = createLiveOutput(sub.callId, emitLive);
        subLive.set(sub.callId, stream);
      }
      stream?.write(sub.text);
    },
  });
  const run = scope.runtime.run(call.name, call.arguments, ctx, { topLevel: true });
  const result = await untilAborted(run, scope.signal);
  for (const callId of [...subLive.keys()]) closeSubLive(callId);
  live.close();
  open = false;
  await settle(scope.signal.aborted || result === undefined ? interruptedResult() : result);
}

/** The run's result; after an abort, waits at most `killGraceMs` for the tool to stop. */
async function untilAborted(
  run: Promise<ToolRunResult>,
  signal: AbortSignal,
): Promise<ToolRunResult | undefined> {
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<undefined>((resolve) => {
    onAbort = () => setTimeout(() => resolve(undefined), killGraceMs).unref();
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([run, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
