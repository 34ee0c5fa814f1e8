import { Code, ConnectError, type Interceptor } from '@connectrpc/connect';
import { bodyFaultKey } from './check-request-body.js';
import { clientGone, isClientGone } from './client-gone.js';
import { toConnectError } from './to-connect-error.js';

/** Receives one line per failed request. */
export type RequestLog = (line: string) => void;

/**
 * Maps every error a handler throws (also mid-stream) through `toConnectError` and
 * logs one line per failed request: `dsh: <Service/Method> <code>: <message>`. A
 * client that cancelled, disconnected or reset its stream (aborted signal, ECONNRESET,
 * EPIPE...) is not a failure of the host: it ends as `canceled` and is not logged.
 */
export function createErrorInterceptor(log: RequestLog): Interceptor {
  return (next) => async (req) => {
    const procedure = `${req.service.name}/${req.method.name}`;
    const fail = (error: unknown): ConnectError =>
      requestFailure(error, {
        procedure,
        aborted: req.signal.aborted,
        quiet: req.contextValues.get(bodyFaultKey)?.quiet === true,
        log,
      });
    let res;
    try {
      res = await next(req);
    } catch (error) {
      throw fail(error);
    }
    if (!res.stream) return res;
    const messages = res.message;
    return {
      ...res,
      message: (async function* () {
        try {
          yield* messages;
        } catch (error) {
          throw fail(error);
        }
      })(),
    };
  };
}

/** What `requestFailure` needs to know about the call that failed. */
export interface FailedCall {
  /** `Service/Method`, for the log line. */
  readonly procedure: string;
  /** True when the call's client cancelled or went away. */
  readonly aborted: boolean;
  /** True when the failure was already answered and needs no log line. */
  readonly quiet: boolean;
  readonly log: RequestLog;
}

/**
 * The `ConnectError` a failed call answers with (`toConnectError`), logged in one line
 * unless nobody reads it: a client that went away gets `canceled` and no line.
 */
export function requestFailure(error: unknown, call: FailedCall): ConnectError {
  if (isClientGone(error)) return clientGone(error);
  if (call.aborted && !(error instanceof ConnectError)) return clientGone(error);
  const mapped = toConnectError(error, (cause) => {
    call.log(`dsh: ${call.procedure} internal error: ${describe(cause)}`);
  });
  if (!call.aborted && !call.quiet) {
    call.log(`dsh: ${call.procedure} ${Code[mapped.code]}: ${mapped.rawMessage}`);
  }
  return mapped;
}

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
