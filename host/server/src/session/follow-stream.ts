import { SessionService, type FollowRequestSchema, type FollowResponse } from '@dsh/gen/service';
import type { DirectStream } from '../direct-stream.js';
import { abortable } from './abortable.js';
import { followDirect } from './follow-direct.js';
import { IdleTicker } from './idle-ticker.js';
import type { SessionServiceDeps } from './session-service.js';

/**
 * `Follow` for binary Connect clients, written directly (`serveDirectStream`): the same
 * frames as the Connect handler's binary stream (`followDirect`, with shared encodings),
 * and a frame that followers in step share is enveloped once for all of them.
 */
export function followStream(
  deps: Pick<SessionServiceDeps, 'store' | 'follow' | 'streams' | 'pace'>,
): DirectStream<typeof FollowRequestSchema> {
  const idle = new IdleTicker(deps.follow.heartbeatMs);
  return {
    method: SessionService.method.follow,
    sharedKey: (message) => {
      const response = message as FollowResponse;
      return response.frame.case === undefined ? response.$unknown : undefined;
    },
    async serve(request, signal, sink) {
      const journal = await abortable(deps.store.open(request.sessionId), signal);
      await followDirect(journal, request, deps.follow, signal, sink, idle, {
        counter: deps.streams,
        pace: deps.pace,
      });
    },
  };
}
