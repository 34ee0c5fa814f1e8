import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import { ApprovalDecision } from '@dsh/gen/events';
import type { ToolCallHead, ToolContext, ToolValue } from '@dsh/tools';
import type { ApprovalVerdict } from './approval-policy.js';
import type { EventRecorder } from './event-recorder.js';
import { payloads } from './payloads.js';
import type { PendingInteractions } from './pending-interactions.js';

/** What the gate of a turn needs from it. */
export interface GateScope {
  readonly recorder: EventRecorder;
  readonly pending: PendingInteractions;
  verdict(toolName: string, rawArgs: string): Promise<ApprovalVerdict>;
  /** Called when a person answers "allow for this session". */
  allowForSession(toolName: string): void;
  newId(prefix: string): string;
}

/** The value a call settles with when its turn was cancelled before or while it waited. */
export const interruptedValue: ToolValue = {
  content: interruptedMessage,
  isError: true,
  error: { name: 'Interrupted', code: errorCodes.interrupted, message: interruptedMessage },
};

/**
 * The one approval check of a turn, used for top-level calls and for every `run_code`
 * sub-call at any depth: `deny` refuses without asking, `ask` records `approval/requested`
 * with the call's own id (a sub-call's reason says so), waits for `Respond` or the call's
 * signal, and records `approval/resolved`.
 */
export function createApprovalGate(scope: GateScope): ToolContext['gate'] {
  return async (call: ToolCallHead, signal: AbortSignal) => {
    if (signal.aborted) return interruptedValue;
    const verdict = await scope.verdict(call.name, call.rawArgs);
    if (signal.aborted) return interruptedValue;
    if (verdict.policy === 'allow') return undefined;
    if (verdict.policy === 'deny') return denied(`${call.name} is not allowed: ${verdict.reason}.`);
    const approvalId = scope.newId('approval');
    const reason =
      call.parentCallId === undefined
        ? verdict.reason
        : `${verdict.reason}, called by the run_code program of ${call.parentCallId}`;
    // Registered before the request is durable, so an answer to it can never arrive early.
    const answer = scope.pending.waitApproval(approvalId, signal);
    await scope.recorder.record([
      payloads.approvalRequested(approvalId, call.callId, call.name, reason),
    ]);
    const decision = await answer;
    await scope.recorder.record([payloads.approvalResolved(approvalId, decision)]);
    switch (decision) {
      case ApprovalDecision.ALLOW:
        return undefined;
      case ApprovalDecision.ALLOW_SESSION:
        scope.allowForSession(call.name);
        return undefined;
      case ApprovalDecision.CANCELLED:
        return interruptedValue;
      case ApprovalDecision.DENY:
      case ApprovalDecision.UNSPECIFIED:
        return denied(`The person denied this ${call.name} call.`);
      default: {
        const unknown: never = decision;
        return denied(`The approval ended with an unknown decision ${String(unknown)}.`);
      }
    }
  };
}

function denied(message: string): ToolValue {
  return {
    content: `Error: ${message}`,
    isError: true,
    error: { name: 'Denied', code: errorCodes.denied, message },
  };
}
