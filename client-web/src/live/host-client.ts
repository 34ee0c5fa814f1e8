import { createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-web';
import { SessionService } from '@dsh/gen/service';

const tokenKey = 'dsh-token';

/**
 * Reads the host token: a `?token=` in the page URL wins (it is then stored and removed
 * from the address bar), else the stored one. The host also sets an HttpOnly cookie on
 * `?token=`, so a missing token here is not an error.
 */
export function takeToken(
  location: Location,
  storage: Storage,
  history: History,
): string | undefined {
  const url = new URL(location.href);
  const fromUrl = url.searchParams.get('token');
  if (fromUrl !== null && fromUrl !== '') {
    storage.setItem(tokenKey, fromUrl);
    url.searchParams.delete('token');
    history.replaceState(history.state, '', url.toString());
    return fromUrl;
  }
  return storage.getItem(tokenKey) ?? undefined;
}

/**
 * The SessionService client of the page's own host (same origin), sending `token` when
 * set. It speaks the protobuf binary format: smaller than JSON, faster to decode, and
 * the host encodes each event once for every binary follower.
 */
export function createHostClient(
  baseUrl: string,
  token: string | undefined,
): Client<typeof SessionService> {
  const interceptors: Interceptor[] = [];
  if (token !== undefined) {
    interceptors.push((next) => (request) => {
      request.header.set('Authorization', `Bearer ${token}`);
      return next(request);
    });
  }
  return createClient(
    SessionService,
    createConnectTransport({ baseUrl, interceptors, useBinaryFormat: true }),
  );
}
