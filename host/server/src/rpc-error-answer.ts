import type { IncomingMessage } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import type { NodeResponse } from './write-node-response.js';

/** The RPC content types of Connect, gRPC and gRPC-Web. */
const rpcContentType = /^application\/(?:proto|connect\+|grpc)/i;
/** `/package.Service/Method`: the path shape every RPC protocol uses. */
const rpcPath = /^\/[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+\/[A-Za-z_]\w*$/;

/**
 * True when a request for a path no route knows is meant as an RPC: it has an RPC
 * content type, or its path has the `/package.Service/Method` shape (static files never
 * do). Such a request gets an RPC error instead of the static file server's answer.
 */
export function isRpcRequest(req: IncomingMessage | Http2ServerRequest, path: string): boolean {
  return rpcContentType.test(header(req.headers['content-type']) ?? '') || rpcPath.test(path);
}

/** The Connect codes the edge answers by itself, with their gRPC and HTTP numbers. */
const edgeCodes = {
  unimplemented: { grpc: 12, http: 404 },
  resource_exhausted: { grpc: 8, http: 429 },
} as const;

/**
 * Answers a request with an RPC error in the caller's protocol, before any handler runs:
 * gRPC and gRPC-Web get `grpc-status` (trailers-only), Connect and everything else the
 * Connect HTTP status with a JSON body `{"code", "message"}`.
 */
export function answerRpcError(
  req: IncomingMessage | Http2ServerRequest,
  res: NodeResponse,
  code: keyof typeof edgeCodes,
  message: string,
): void {
  const type = header(req.headers['content-type']) ?? '';
  if (/^application\/grpc/i.test(type)) {
    res.writeHead(200, {
      'content-type': type,
      'grpc-status': String(edgeCodes[code].grpc),
      'grpc-message': encodeURIComponent(message),
    });
    res.end();
    return;
  }
  const body = JSON.stringify({ code, message });
  res.writeHead(edgeCodes[code].http, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
  });
  res.end(body);
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
