import { Code, ConnectError } from '@connectrpc/connect';

/**
 * The state of a live stream: `connecting` before the first opening frame, `live` while
 * frames arrive, `reconnecting` while it waits to retry after `error`, `offline` when a
 * retry cannot help (unknown session, refused token...) or the owner closed it.
 */
export type ConnectionState =
  | { readonly kind: 'connecting' }
  | { readonly kind: 'live' }
  | {
      readonly kind: 'reconnecting';
      /** Failed attempts in a row, 1-based. */
      readonly attempt: number;
      readonly error: string;
      /** Milliseconds until the next attempt. */
      readonly retryInMs: number;
    }
  | { readonly kind: 'offline'; readonly error: string };

/** Codes a retry cannot fix: the stream stops with `offline` until `retry()` is called. */
const permanentCodes: ReadonlySet<Code> = new Set([
  Code.NotFound,
  Code.InvalidArgument,
  Code.Unauthenticated,
  Code.PermissionDenied,
  Code.FailedPrecondition,
  Code.Unimplemented,
]);

/** True when a failure may go away by itself (network, host restart, slow follower). */
export function isRetryable(error: unknown): boolean {
  return !permanentCodes.has(ConnectError.from(error).code);
}

/** A one-line description of any failure, as the user should read it. */
export function describeError(error: unknown): string {
  const connect = ConnectError.from(error);
  return connect.rawMessage === '' ? `[${Code[connect.code]}]` : connect.message;
}
