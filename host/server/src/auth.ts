import { randomBytes, timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import { Code, ConnectError, createContextKey, type Interceptor } from '@connectrpc/connect';

/** The cookie that carries the token for the browser once it has opened `/?token=...`. */
export const tokenCookieName = 'dsh_token';

/** The `Host` (HTTP/1.1) or `:authority` (HTTP/2) a request was sent to, for the rebinding check. */
export const requestAuthorityKey = createContextKey<string | undefined>(undefined, {
  description: 'request authority',
});

/** True for addresses only this machine can reach: 127.0.0.0/8, ::1 and `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  const name = bare.toLowerCase();
  if (name === 'localhost' || name.endsWith('.localhost')) return true;
  if (name === '::1') return true;
  const v4 = name.startsWith('::ffff:') ? name.slice('::ffff:'.length) : name;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/**
 * The token a server bound to `host` uses: the configured one, or for a non-loopback
 * address a fresh random one (the caller prints it), or none for loopback.
 */
export function resolveToken(
  host: string,
  configured: string | undefined,
): { token: string | undefined; generated: boolean } {
  if (configured !== undefined && configured !== '') return { token: configured, generated: false };
  if (isLoopbackHost(host)) return { token: undefined, generated: false };
  return { token: randomBytes(24).toString('base64url'), generated: true };
}

/** True when `given` equals `token`, compared in constant time. */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token a request carries: `Authorization: Bearer T`, else the `dsh_token` cookie. */
export function requestToken(
  authorization: string | null | undefined,
  cookie: string | null | undefined,
): string | undefined {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (bearer) return bearer[1];
  for (const part of (cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === tokenCookieName) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

/**
 * The outcome of checking a request: `ok`, or the reason it is refused. With a token,
 * the request must carry it. Without one (loopback only), the request must be addressed
 * to a loopback name, so a web page on another origin cannot reach the host through
 * DNS rebinding.
 */
export function checkRequest(
  token: string | undefined,
  request: { authorization?: string | null; cookie?: string | null; authority?: string },
): { ok: true } | { ok: false; code: Code; message: string } {
  if (token !== undefined) {
    if (tokenMatches(token, requestToken(request.authorization, request.cookie)))
      return { ok: true };
    return {
      ok: false,
      code: Code.Unauthenticated,
      message:
        'missing or wrong token: send "Authorization: Bearer <token>" with the token that ' +
        '`dsh serve` printed (or set with --token-file, DSH_TOKEN or --token)',
    };
  }
  const hostName = authorityHost(request.authority ?? '');
  if (hostName === '' || isLoopbackHost(hostName)) return { ok: true };
  return {
    ok: false,
    code: Code.PermissionDenied,
    message:
      `requests addressed to ${JSON.stringify(hostName)} are refused by a host without a ` +
      'token: use http://127.0.0.1:<port>, or start dsh serve with --token',
  };
}

/** An interceptor that refuses RPCs failing `checkRequest` with the matching Connect code. */
export function createAuthInterceptor(token: string | undefined): Interceptor {
  return (next) => async (req) => {
    const result = checkRequest(token, {
      authorization: req.header.get('authorization'),
      cookie: req.header.get('cookie'),
      authority: req.contextValues.get(requestAuthorityKey),
    });
    if (!result.ok) throw new ConnectError(result.message, result.code);
    return await next(req);
  };
}

function authorityHost(authority: string): string {
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    return end < 0 ? authority : authority.slice(0, end + 1);
  }
  const colon = authority.lastIndexOf(':');
  return colon < 0 ? authority : authority.slice(0, colon);
}
