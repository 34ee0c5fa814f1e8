import { ApprovalDecision } from '@dsh/gen/events';
import type { RespondRequest } from '@dsh/gen/service';
import { AgentError } from './agent-error.js';
import type { PendingInteractions } from './pending-interactions.js';

/**
 * Hands a person's `Respond` to the approval or question it answers; throws an
 * `AgentError` naming what is wrong when the response is malformed or nothing waits for it.
 */
export function answerPending(
  pending: PendingInteractions,
  sessionId: string,
  response: RespondRequest['response'],
): void {
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
      throw new AgentError('invalid_argument', `unknown response ${JSON.stringify(unknownCase)}`);
    }
  }
}
