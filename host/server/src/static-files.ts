import type { IncomingMessage, ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { extname, join, resolve } from 'node:path';
import sirv from 'sirv';
import { Code } from '@connectrpc/connect';
import { checkRequest, tokenCookieName, tokenMatches } from './auth.js';
import type { NodeHandler } from './rpc-handler.js';
import { closeStalled, type NodeResponse } from './write-node-response.js';

type NodeServerResponse = NodeResponse;

/** What `/` serves when no built web client exists. */
export type StatusPage = () => Promise<string>;

/** Options of `createStaticHandler`. */
export interface StaticOptions {
  /** The built web client (`client-web/dist`); served when it holds an `index.html`. */
  readonly webRoot: string | undefined;
  /** The access token; static files then need the header, the cookie or `?token=`. */
  readonly token: string | undefined;
  readonly statusPage: StatusPage;
  /** A download whose client read nothing for this long is closed. */
  readonly stallTimeoutMs: number;
}

const contentTypes: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
};

/**
 * Serves everything that is not an RPC: the built web client from `webRoot` through sirv
 * (files with their content type, precompressed `.br`/`.gz` variants when the client
 * accepts them, ETags, hashed assets immutable, `index.html` for client routes, nothing
 * outside the root), or a status page at `/` while no bundle exists. With a token, a browser opens
 * `/?token=T` once: the token moves into an HttpOnly cookie and the URL is cleaned.
 */
export function createStaticHandler(options: StaticOptions): NodeHandler {
  return (req, res) => {
    serve(options, req.method ?? 'GET', req.url ?? '/', req.headers, res).catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', 'internal error\n');
      else res.end();
    });
  };
}

async function serve(
  options: StaticOptions,
  method: string,
  rawUrl: string,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  res: NodeServerResponse,
): Promise<void> {
  if (method !== 'GET' && method !== 'HEAD') {
    return send(res, 405, 'text/plain; charset=utf-8', `${method} is not supported here\n`);
  }
  const url = new URL(rawUrl, 'http://host.invalid');
  const queryToken = url.searchParams.get('token');
  if (options.token !== undefined && queryToken !== null) {
    if (!tokenMatches(options.token, queryToken)) {
      return send(res, 401, 'text/plain; charset=utf-8', 'wrong token in ?token=\n');
    }
    url.searchParams.delete('token');
    res.writeHead(303, {
      location: url.pathname + url.search,
      'set-cookie': `${tokenCookieName}=${encodeURIComponent(queryToken)}; HttpOnly; SameSite=Strict; Path=/`,
      'cache-control': 'no-store',
    });
    res.end();
    return;
  }
  const access = checkRequest(options.token, {
    authorization: header(headers.authorization),
    cookie: header(headers.cookie),
    authority: header(headers.host) ?? header(headers[':authority']),
  });
  if (!access.ok) {
    const hint =
      options.token === undefined
        ? access.message
        : 'this host needs a token: open /?token=<token> once (the token `dsh serve` printed)';
    return send(
      res,
      access.code === Code.Unauthenticated ? 401 : 403,
      'text/plain; charset=utf-8',
      `${hint}\n`,
    );
  }
  const head = method === 'HEAD';
  const site = options.webRoot === undefined ? undefined : await siteOf(options.webRoot);
  if (site !== undefined) {
    const path = pathOf(url);
    if (path === 'bad') return send(res, 400, 'text/plain; charset=utf-8', 'bad path\n');
    const found = await new Promise<boolean>((resolve) => {
      watchStall(res, options.stallTimeoutMs);
      site.serve(
        { url: path + url.search, headers, method } as unknown as IncomingMessage,
        res as ServerResponse,
        () => resolve(false),
      );
      res.once('close', () => resolve(true));
      res.once('finish', () => resolve(true));
    });
    if (found) return;
    return send(res, 404, 'text/plain; charset=utf-8', `not found: ${url.pathname}\n`, head);
  }
  if (url.pathname === '/' || url.pathname === '/index.html') {
    return send(res, 200, contentTypes['.html']!, await options.statusPage(), head);
  }
  return send(res, 404, 'text/plain; charset=utf-8', `not found: ${url.pathname}\n`, head);
}

/** The decoded path of a request, `bad` when it cannot name a file safely. */
function pathOf(url: URL): string | 'bad' {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return 'bad';
  }
  if (path.includes('\0') || path.split(/[\\/]/).includes('..')) return 'bad';
  return url.pathname;
}

interface Site {
  readonly indexMtimeMs: number;
  readonly serve: ReturnType<typeof sirv>;
}

const sites = new Map<string, Site>();

/**
 * The sirv handler of a built web client, or undefined while it has no `index.html`.
 * sirv lists the files once; a rebuild (a new `index.html`) makes a new listing, so a
 * host that keeps running serves the new hashed names.
 */
async function siteOf(webRoot: string): Promise<Site | undefined> {
  const root = resolve(webRoot);
  let indexMtimeMs: number;
  try {
    const info = await stat(join(root, 'index.html'));
    if (!info.isFile()) return undefined;
    indexMtimeMs = info.mtimeMs;
  } catch {
    return undefined;
  }
  const known = sites.get(root);
  if (known !== undefined && known.indexMtimeMs === indexMtimeMs) return known;
  const site: Site = {
    indexMtimeMs,
    serve: sirv(root, {
      // Precompressed `.br` / `.gz` siblings written by the client build, chosen by
      // Accept-Encoding; the client route fallback is `index.html`.
      brotli: true,
      gzip: true,
      single: true,
      etag: true,
      setHeaders: (res, pathname) => {
        const type = contentTypes[extname(pathname).toLowerCase() || '.html'];
        if (type !== undefined) res.setHeader('Content-Type', type);
        res.setHeader('X-Content-Type-Options', 'nosniff');
        res.setHeader('Cache-Control', cacheControl(pathname));
      },
    }),
  };
  sites.set(root, site);
  return site;
}

/**
 * Hashed build output under `/assets/` never changes under its name: cached for a year
 * and immutable. The app shell is revalidated on every load (so a rebuild is picked up);
 * other files (the favicon) are cached for five minutes.
 */
export function cacheControl(pathname: string): string {
  if (pathname.startsWith('/assets/')) return 'public, max-age=31536000, immutable';
  if (extname(pathname) === '' || pathname.endsWith('.html')) return 'no-cache';
  return 'public, max-age=300';
}

/** Closes a download whose client has not drained a blocked write for `stallTimeoutMs`. */
function watchStall(res: NodeServerResponse, stallTimeoutMs: number): void {
  let blockedSince: number | undefined;
  const timer = setInterval(
    () => {
      if (!res.writableNeedDrain) blockedSince = undefined;
      else if (blockedSince === undefined) blockedSince = Date.now();
      else if (Date.now() - blockedSince >= stallTimeoutMs) {
        clearInterval(timer);
        closeStalled(res);
      }
    },
    Math.max(10, stallTimeoutMs / 2),
  );
  timer.unref();
  const stop = (): void => clearInterval(timer);
  res.once('close', stop);
  res.once('finish', stop);
  res.on('drain', () => (blockedSince = undefined));
}

function send(
  res: NodeServerResponse,
  status: number,
  type: string,
  body: string,
  head = false,
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    'x-content-type-options': 'nosniff',
  });
  if (head) res.end();
  else res.end(body);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
