import { Code, ConnectError } from '@connectrpc/connect';
import type { ContentBlock } from '@dsh/gen/content';
import type { PromptMode, RespondRequest } from '@dsh/gen/service';

/** A change of a session's running state. */
export interface AgentStatus {
  readonly sessionId: string;
  readonly running: boolean;
}

/**
 * What the session service needs from the agent runtime: sending input, cancelling,
 * answering approvals and questions, and the running state of each session. Methods
 * throw `ConnectError` (or `JournalError`) with a code the client can act on.
 */
export interface AgentControl {
  /** False when no runtime is attached; DescribeHost then leaves out prompt/cancel/respond. */
  readonly enabled: boolean;
  prompt(
    sessionId: string,
    input: { content: ContentBlock[]; mode: PromptMode },
  ): Promise<{ started: boolean; queuePosition: number }>;
  cancel(sessionId: string): Promise<{ cancelled: boolean; cleared: number }>;
  respond(sessionId: string, response: RespondRequest['response']): Promise<void>;
  /** Compacts the session's model history (now when idle, else before the next step). */
  compact(sessionId: string, instruction: string): Promise<{ started: boolean }>;
  isRunning(sessionId: string): boolean;
  /** Observes running-state changes; returns the function that stops observing. */
  onStatus(listener: (status: AgentStatus) => void): () => void;
}

/**
 * The control of a host without an agent runtime (fixtures, read-only serving): every
 * session is idle and input is refused with `failed_precondition`.
 */
export function createNoAgentControl(): AgentControl {
  const refuse = (sessionId: string): never => {
    throw new ConnectError(
      `this host has no agent runtime for session ${sessionId}: ` +
        'start dsh serve with an agent runtime to send input',
      Code.FailedPrecondition,
    );
  };
  return {
    enabled: false,
    prompt: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    cancel: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    respond: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    compact: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    isRunning: () => false,
    onStatus: () => () => {},
  };
}
