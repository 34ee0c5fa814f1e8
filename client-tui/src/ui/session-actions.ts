import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { ApprovalDecision } from '@dsh/gen/events';
import { PromptMode } from '@dsh/gen/service';
import { describeError } from '@dsh/client-live';
import type { SessionClient } from '../data/session-client.js';

/** How a prompt was taken: `error` when it was not, else whether it started a turn at once. */
export interface SendResult {
  readonly error?: string;
  /** False when the host queued it (or keeps it for the running turn's next step). */
  readonly started: boolean;
}

/** The writes a person can make to a session; each resolves with an error text or undefined. */
export interface SessionActions {
  send(sessionId: string, text: string, mode: 'queue' | 'steer'): Promise<SendResult>;
  stop(sessionId: string): Promise<string | undefined>;
  /** Asks for a compaction; `started` is false when it waits for the running turn's next step. */
  compact(
    sessionId: string,
    instruction: string,
  ): Promise<{ started: boolean } | { error: string }>;
  approve(
    sessionId: string,
    approvalId: string,
    decision: 'allow' | 'session' | 'deny',
  ): Promise<string | undefined>;
  answer(
    sessionId: string,
    questionId: string,
    answers: readonly (readonly string[])[] | 'cancelled',
  ): Promise<string | undefined>;
  createSession(): Promise<{ id: string } | { error: string }>;
  /** Renames (`title`) or archives / unarchives (`archived`) a session (`UpdateSession`). */
  update(
    sessionId: string,
    change: { readonly title?: string; readonly archived?: boolean },
  ): Promise<string | undefined>;
  /** Moves a session to the host's trash (`DeleteSession`); resolves with where it went. */
  remove(sessionId: string): Promise<{ trashPath: string } | { error: string }>;
}

const decisions = {
  allow: ApprovalDecision.ALLOW,
  session: ApprovalDecision.ALLOW_SESSION,
  deny: ApprovalDecision.DENY,
} as const;

async function attempt(run: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await run();
    return undefined;
  } catch (error) {
    return describeError(error);
  }
}

/**
 * Prompt, Cancel, Respond, Compact, CreateSession, UpdateSession and DeleteSession over
 * `client`; failures become messages. Prompts to one session go out one after another,
 * each once the one before is answered, so they reach the host in the order typed.
 */
export function createSessionActions(client: SessionClient): SessionActions {
  const sending = new Map<string, Promise<SendResult>>();
  async function prompt(sessionId: string, text: string, mode: 'queue' | 'steer') {
    try {
      const response = await client.prompt({
        sessionId,
        content: [create(ContentBlockSchema, { block: { case: 'text', value: { text } } })],
        mode: mode === 'steer' ? PromptMode.STEER : PromptMode.QUEUE,
      });
      return { started: response.started };
    } catch (error) {
      return { error: describeError(error), started: false };
    }
  }
  return {
    send(sessionId, text, mode) {
      const before = sending.get(sessionId);
      const sent =
        before === undefined
          ? prompt(sessionId, text, mode)
          : before.then(() => prompt(sessionId, text, mode));
      sending.set(sessionId, sent);
      void sent.then(() => {
        if (sending.get(sessionId) === sent) sending.delete(sessionId);
      });
      return sent;
    },
    stop: (sessionId) => attempt(() => client.cancel({ sessionId })),
    async compact(sessionId, instruction) {
      try {
        const { started } = await client.compact({ sessionId, instruction });
        return { started };
      } catch (error) {
        return { error: describeError(error) };
      }
    },
    approve: (sessionId, approvalId, decision) =>
      attempt(() =>
        client.respond({
          sessionId,
          response: { case: 'approval', value: { approvalId, decision: decisions[decision] } },
        }),
      ),
    answer: (sessionId, questionId, answers) =>
      attempt(() =>
        client.respond({
          sessionId,
          response: {
            case: 'question',
            value:
              answers === 'cancelled'
                ? { questionId, cancelled: true }
                : { questionId, answers: answers.map((values) => ({ values: [...values] })) },
          },
        }),
      ),
    async createSession() {
      try {
        const response = await client.createSession({});
        const id = response.session?.id;
        return id === undefined ? { error: 'the host returned no session' } : { id };
      } catch (error) {
        return { error: describeError(error) };
      }
    },
    update: (sessionId, change) => attempt(() => client.updateSession({ sessionId, ...change })),
    async remove(sessionId) {
      try {
        const { trashPath } = await client.deleteSession({ sessionId });
        return { trashPath };
      } catch (error) {
        return { error: describeError(error) };
      }
    },
  };
}
