import { SessionService, type FollowRequestSchema, type FollowResponse } from '@dsh/gen/service';
import type { DirectStream } from '../direct-stream.js';
import { abortable } from './abortable.js';
import { follow } from './follow.js';
import type { SessionServiceDeps } from './session-service.js';

/**
 * `Follow` for binary Connect clients, written directly (`serveDirectStream`): the same
 * frames as the Connect handler's binary stream (`follow` with shared encodings), and a
 * frame that followers in step share is enveloped once for all of them.
 */
export function followStream(
  deps: Pick<SessionServiceDeps, 'store' | 'follow' | 'streams' | 'pace'>,
): DirectStream<typeof FollowRequestSchema> {
  return {
    method: SessionService.method.follow,
    sharedKey: (message) => {
      const response = message as FollowResponse;
      return response.frame.case === undefined ? response.$unknown : undefined;
    },
    async start(request, signal) {
      const journal = await abortable(deps.store.open(request.sessionId), signal);
      return follow(journal, request, deps.follow, signal, {
        counter: deps.streams,
        pace: deps.pace,
        binary: true,
      });
    },
  };
}
