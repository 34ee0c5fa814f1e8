import { createReadStream } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { stat } from 'node:fs/promises';
import { extname, resolve, sep } from 'node:path';
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
 * Serves everything that is not an RPC: the built web client from `webRoot` (files with
 * their content type, `index.html` for client routes, nothing outside the root), or a
 * status page at `/` while no bundle exists. With a token, a browser opens
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
  const file = options.webRoot === undefined ? undefined : await findFile(options.webRoot, url);
  if (file === 'bad') return send(res, 400, 'text/plain; charset=utf-8', 'bad path\n');
  if (file !== undefined) return sendFile(res, file, head, options.stallTimeoutMs);
  if (url.pathname === '/' || url.pathname === '/index.html') {
    return send(res, 200, contentTypes['.html']!, await options.statusPage(), head);
  }
  return send(res, 404, 'text/plain; charset=utf-8', `not found: ${url.pathname}\n`, head);
}

/** The file to serve for `url`, `bad` for an unsafe path, undefined when there is none. */
async function findFile(webRoot: string, url: URL): Promise<string | 'bad' | undefined> {
  const root = resolve(webRoot);
  const index = resolve(root, 'index.html');
  if (!(await isFile(index))) return undefined;
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return 'bad';
  }
  if (path.includes('\0')) return 'bad';
  const target = resolve(root, '.' + path);
  if (target !== root && !target.startsWith(root + sep)) return 'bad';
  if (await isFile(target)) return target;
  const dirIndex = resolve(target, 'index.html');
  if (await isFile(dirIndex)) return dirIndex;
  // A path without an extension is a client route: the app shell handles it.
  return extname(path) === '' ? index : undefined;
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

function sendFile(
  res: NodeServerResponse,
  path: string,
  head: boolean,
  stallTimeoutMs: number,
): void {
  const type = contentTypes[extname(path).toLowerCase()] ?? 'application/octet-stream';
  res.writeHead(200, {
    'content-type': type,
    'cache-control': path.endsWith('index.html') ? 'no-cache' : 'public, max-age=300',
    'x-content-type-options': 'nosniff',
  });
  if (head) {
    res.end();
    return;
  }
  const stream = createReadStream(path);
  stream.on('error', () => res.end());
  res.once('close', () => stream.destroy());
  stream.on('data', (chunk) => {
    if ((res as ServerResponse).write(chunk as Buffer)) return;
    stream.pause();
    const stall = setTimeout(() => closeStalled(res), stallTimeoutMs);
    res.once('drain', () => {
      clearTimeout(stall);
      stream.resume();
    });
  });
  stream.on('end', () => res.end());
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
