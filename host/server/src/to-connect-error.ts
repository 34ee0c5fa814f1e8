import { Code, ConnectError } from '@connectrpc/connect';
import { JournalErrorDetailSchema } from '@dsh/gen/service';
import { JournalError } from '@dsh/journal';
import { isAgentRefusal } from './session/agent-control.js';

/** Where `toConnectError` reports the real cause of an internal error. */
export type InternalErrorLog = (error: unknown) => void;

const defaultLog: InternalErrorLog = (error) => {
  console.error('dsh: internal error:', error);
};

/**
 * The one place that maps what a handler throws to the Connect error the client sees:
 * journal failures to their codes (a corrupt journal carries a `JournalErrorDetail`; a
 * full disk is `resource_exhausted`, a read-only one `failed_precondition`, another I/O
 * failure `unavailable`, each naming the data dir and the fix), an agent's refusal to its
 * code, a `ConnectError` (the transport's own: auth, bodies, cancels) unchanged, and
 * everything else to `internal` with a generic message, so no stack or path leaks to
 * clients; the real error goes to `log`.
 */
export function toConnectError(error: unknown, log: InternalErrorLog = defaultLog): ConnectError {
  if (error instanceof ConnectError) return error;
  if (isAgentRefusal(error)) {
    const code = error.kind === 'invalid_argument' ? Code.InvalidArgument : Code.FailedPrecondition;
    return new ConnectError(error.message, code, undefined, undefined, error);
  }
  if (error instanceof JournalError) {
    switch (error.kind) {
      case 'invalid_argument':
        return new ConnectError(error.message, Code.InvalidArgument, undefined, undefined, error);
      case 'not_found':
        return new ConnectError(error.message, Code.NotFound, undefined, undefined, error);
      case 'corrupt': {
        const detail = {
          desc: JournalErrorDetailSchema,
          value: {
            sessionId: error.detail?.sessionId ?? '',
            line: error.detail?.line ?? 0,
            reason: error.message,
          },
        };
        return new ConnectError(error.message, Code.FailedPrecondition, undefined, [detail], error);
      }
      case 'read_only':
        return new ConnectError(
          error.message,
          Code.FailedPrecondition,
          undefined,
          undefined,
          error,
        );
      case 'exists':
        return new ConnectError(error.message, Code.AlreadyExists, undefined, undefined, error);
      case 'conflict':
        return new ConnectError(error.message, Code.Aborted, undefined, undefined, error);
      case 'too_slow':
        return new ConnectError(error.message, Code.ResourceExhausted, undefined, undefined, error);
      case 'no_space':
        return new ConnectError(error.message, Code.ResourceExhausted, undefined, undefined, error);
      case 'unavailable':
        return new ConnectError(error.message, Code.Unavailable, undefined, undefined, error);
      case 'too_large':
        return new ConnectError(error.message, Code.InvalidArgument, undefined, undefined, error);
      default: {
        const unknownKind: never = error.kind;
        log(new Error(`journal error of unknown kind ${String(unknownKind)}`, { cause: error }));
        return internalError(error);
      }
    }
  }
  log(error);
  return internalError(error);
}

function internalError(cause: unknown): ConnectError {
  return new ConnectError(
    'the host failed unexpectedly: see its log (stderr) for the cause, then retry',
    Code.Internal,
    undefined,
    undefined,
    cause,
  );
}
