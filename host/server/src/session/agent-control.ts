import type { ContentBlock } from '@dsh/gen/content';
import type { PromptMode, RespondRequest } from '@dsh/gen/service';

/** An input waiting in a session's queue (the shape of the proto `QueuedInput`). */
export interface QueuedInputFacts {
  readonly queueId: string;
  readonly content: ContentBlock[];
  readonly steer: boolean;
  readonly seq: number;
}

/** A change of a session's running state. */
export interface AgentStatus {
  readonly sessionId: string;
  readonly running: boolean;
}

/** Why an `AgentControl` refused input. */
export type AgentRefusalKind = 'invalid_argument' | 'failed_precondition';

/**
 * What an `AgentControl` method rejects with when it refuses input: an Error named
 * `AgentError` with a kind (the agent runtime's `AgentError` has this shape), mapped to
 * a Connect code by `toConnectError` like a `JournalError`.
 */
export interface AgentRefusal extends Error {
  readonly name: 'AgentError';
  readonly kind: AgentRefusalKind;
}

/** True for an `AgentRefusal`. */
export function isAgentRefusal(error: unknown): error is AgentRefusal {
  if (!(error instanceof Error) || error.name !== 'AgentError') return false;
  const { kind } = error as { kind?: unknown };
  return kind === 'invalid_argument' || kind === 'failed_precondition';
}

/**
 * An `AgentRefusal` raised by this package itself: the control without an agent, and the
 * session service refusing what this host cannot do (continuing a session).
 */
export function agentRefusal(kind: AgentRefusalKind, message: string): AgentRefusal {
  return Object.assign(new Error(message), { name: 'AgentError' as const, kind });
}

/**
 * What the session service needs from the agent runtime: sending input, cancelling,
 * answering approvals and questions, and the running state of each session. Methods
 * reject with an `AgentRefusal` (or a `JournalError`) that the server maps to the code a
 * client can act on.
 */
export interface AgentControl {
  /** False when no runtime is attached; DescribeHost then leaves out prompt/cancel/respond. */
  readonly enabled: boolean;
  prompt(
    sessionId: string,
    input: { content: ContentBlock[]; mode: PromptMode },
  ): Promise<{ started: boolean; queuePosition: number; queueId: string }>;
  /** Clears the queue and aborts the running turn; returns what it cleared, in order. */
  cancel(sessionId: string): Promise<{
    cancelled: boolean;
    cleared: number;
    clearedInputs: QueuedInputFacts[];
  }>;
  respond(sessionId: string, response: RespondRequest['response']): Promise<void>;
  /** Compacts the session's model history (now when idle, else before the next step). */
  compact(sessionId: string, instruction: string): Promise<{ started: boolean }>;
  /** Replaces a waiting input's content, or removes it when `content` is empty. */
  editQueue(
    sessionId: string,
    queueId: string,
    content: ContentBlock[],
  ): Promise<{ previous: ContentBlock[] }>;
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
    throw agentRefusal(
      'failed_precondition',
      `this host has no agent runtime for session ${sessionId}: ` +
        'start dsh serve with an agent runtime to send input',
    );
  };
  return {
    enabled: false,
    prompt: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    cancel: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    respond: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    compact: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    editQueue: (sessionId) => Promise.resolve().then(() => refuse(sessionId)),
    isRunning: () => false,
    onStatus: () => () => {},
  };
}
