import { ApprovalDecision } from '@dsh/gen/events';
import type { UserAnswers } from '@dsh/tools';

/**
 * The approvals and questions of one session that wait for `Respond`. A wait ends with the
 * person's answer, or with `cancelled` as soon as its signal aborts.
 */
export interface PendingInteractions {
  waitApproval(approvalId: string, signal: AbortSignal): Promise<ApprovalDecision>;
  waitQuestion(questionId: string, signal: AbortSignal): Promise<UserAnswers | 'cancelled'>;
  /** False when no approval with that id is pending. */
  answerApproval(approvalId: string, decision: ApprovalDecision): boolean;
  /** False when no question with that id is pending. */
  answerQuestion(questionId: string, answers: UserAnswers | 'cancelled'): boolean;
}

/** Creates an empty set of pending interactions. */
export function createPendingInteractions(): PendingInteractions {
  const approvals = new Map<string, (decision: ApprovalDecision) => void>();
  const questions = new Map<string, (answers: UserAnswers | 'cancelled') => void>();

  function wait<T>(
    map: Map<string, (value: T) => void>,
    id: string,
    signal: AbortSignal,
    onAbort: T,
  ): Promise<T> {
    return new Promise<T>((resolve) => {
      const settle = (value: T): void => {
        map.delete(id);
        signal.removeEventListener('abort', abort);
        resolve(value);
      };
      const abort = (): void => settle(onAbort);
      if (signal.aborted) return settle(onAbort);
      map.set(id, settle);
      signal.addEventListener('abort', abort, { once: true });
    });
  }
  function answer<T>(map: Map<string, (value: T) => void>, id: string, value: T): boolean {
    const settle = map.get(id);
    if (!settle) return false;
    settle(value);
    return true;
  }

  return {
    waitApproval: (id, signal) => wait(approvals, id, signal, ApprovalDecision.CANCELLED),
    waitQuestion: (id, signal) =>
      wait<UserAnswers | 'cancelled'>(questions, id, signal, 'cancelled'),
    answerApproval: (id, decision) => answer(approvals, id, decision),
    answerQuestion: (id, answers) => answer(questions, id, answers),
  };
}
