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
    const fail = (error: unknown): ConnectError => {
      if (isClientGone(error)) return clientGone(error);
      if (req.signal.aborted && !(error instanceof ConnectError)) return clientGone(error);
      const mapped = toConnectError(error, (cause) => {
        log(`dsh: ${procedure} internal error: ${describe(cause)}`);
      });
      // Nobody reads the answer to a call whose client went away.
      if (!req.signal.aborted && req.contextValues.get(bodyFaultKey)?.quiet !== true) {
        log(`dsh: ${procedure} ${Code[mapped.code]}: ${mapped.rawMessage}`);
      }
      return mapped;
    };
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

function describe(error: unknown): string {
  if (error instanceof Error) return error.stack ?? `${error.name}: ${error.message}`;
  return String(error);
}
