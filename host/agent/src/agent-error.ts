/** Why the agent runtime refused input; the server maps each kind to one Connect code. */
export type AgentErrorKind =
  | 'invalid_argument' // the input itself is wrong (no content, an unknown decision)
  | 'failed_precondition'; // the session cannot take it now (read-only, nothing pending, no folder)

/**
 * The one error type of the agent boundary: input the runtime refuses, with a message
 * that names the fix. It has the shape `@dsh/server` declares for `AgentControl`
 * refusals (an Error named `AgentError` with a `kind`), so neither package imports the other.
 */
export class AgentError extends Error {
  override readonly name = 'AgentError';
  constructor(
    readonly kind: AgentErrorKind,
    message: string,
  ) {
    super(message);
  }
}
