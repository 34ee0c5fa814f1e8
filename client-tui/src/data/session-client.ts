import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';

/** A Connect client of the host's `SessionService`. */
export type SessionClient = Client<typeof SessionService>;

/**
 * Connects to a dsh host from Node: the Connect protocol over HTTP/1.1 (what proxies and
 * SSH tunnels pass) in the protobuf binary format (smaller and faster to decode than
 * JSON, and encoded once per event on the host for every binary follower), with
 * `Authorization: Bearer <token>` when a token is given.
 */
export function createSessionClient(baseUrl: string, token?: string): SessionClient {
  const auth: Interceptor = (next) => (request) => {
    if (token !== undefined && token !== '') request.header.set('Authorization', `Bearer ${token}`);
    return next(request);
  };
  const transport = createConnectTransport({
    baseUrl,
    httpVersion: '1.1',
    useBinaryFormat: true,
    interceptors: [auth],
  });
  return createClient(SessionService, transport);
}
