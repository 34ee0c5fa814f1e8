import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Http2ServerRequest } from 'node:http2';
import {
  createConnectRouter,
  type ConnectRouter,
  type ConnectRouterOptions,
  type ContextValues,
} from '@connectrpc/connect';
import { universalRequestFromNodeRequest } from '@connectrpc/connect-node';
import type { ConnectError } from '@connectrpc/connect';
import { checkRequestBody, createRequestBodyInterceptor } from './check-request-body.js';
import {
  directStreamRequest,
  serveDirectStream,
  type DirectStream,
  type DirectStreamOptions,
} from './direct-stream.js';
import { directUnaryFormat, serveDirectUnary, type DirectUnary } from './direct-unary.js';
import { isClientGone } from './client-gone.js';
import type { RequestLog } from './error-interceptor.js';
import { lingerBeforeEnd, lingeringBody } from './lingering-close.js';
import { createLoopSlices } from './loop-slices.js';
import { sendUncompressed, strictCompressions } from './strict-compression.js';
import { answerRpcError, isRpcRequest } from './rpc-error-answer.js';
import { isStalledClient, writeNodeResponse, type NodeResponse } from './write-node-response.js';

/**
 * Most time the responses of one handler write in one turn of the event loop before
 * requests, timers and other I/O get their turn (`createLoopSlices`).
 */
const responseSliceMs = 10;

/** A Node request of either HTTP version. */
export type NodeRequest = IncomingMessage | Http2ServerRequest;

/** A Node request handler for `http` and `http2` servers alike. */
export type NodeHandler = (req: NodeRequest, res: NodeResponse) => void;

/** Options of `createRpcHandler`. */
export interface RpcHandlerOptions extends Omit<ConnectRouterOptions, 'acceptCompression'> {
  readonly routes: (router: ConnectRouter) => void;
  /** Values every call's context starts with. */
  readonly contextValues: (req: NodeRequest) => ContextValues;
  /** Serves every request that is not an RPC (static files). */
  readonly fallback: NodeHandler;
  /** One line per request that failed on the host's side. */
  readonly log: RequestLog;
  /** A response whose client read nothing for this long is closed (`closeStalled`). */
  readonly stallTimeoutMs: number;
  /**
   * Server-streaming RPCs (by request path) written without Connect's per-message
   * pipeline when the request is plain binary Connect (`serveDirectStream`), and why a
   * request to them is refused (the same check the auth interceptor makes).
   */
  readonly direct?: {
    readonly streams: ReadonlyMap<string, DirectStream>;
    /** Unary RPCs written the same way for plain Connect, binary or JSON (`serveDirectUnary`). */
    readonly unaries?: ReadonlyMap<string, DirectUnary>;
    readonly refuse: (req: NodeRequest) => ConnectError | undefined;
  };
}

/**
 * The Node request handler of the RPCs, in place of connect-node's adapter: it answers
 * broken request bodies with `invalid_argument` (`checkRequestBody`), an unknown RPC
 * path with `unimplemented` naming the known services, writes responses so that a
 * client that stops reading or leaves always releases its handler
 * (`writeNodeResponse`), and treats a client going away as nothing to log.
 */
export function createRpcHandler(options: RpcHandlerOptions): NodeHandler {
  const readMaxBytes = options.readMaxBytes ?? 0xffffffff;
  const compressions = strictCompressions;
  const router = createConnectRouter({
    ...options,
    acceptCompression: [...compressions],
    interceptors: [...(options.interceptors ?? []), createRequestBodyInterceptor()],
  });
  options.routes(router);
  const handlers = new Map(router.handlers.map((h) => [h.requestPath, h]));
  const services = new Map<string, string[]>();
  for (const h of router.handlers) {
    services.set(h.service.typeName, [...(services.get(h.service.typeName) ?? []), h.method.name]);
  }
  const slices = createLoopSlices(responseSliceMs);
  const directOptions: DirectStreamOptions | undefined =
    options.direct === undefined
      ? undefined
      : {
          refuse: options.direct.refuse,
          readMaxBytes,
          stallTimeoutMs: options.stallTimeoutMs,
          slices,
          log: options.log,
          shutdown: options.shutdownSignal ?? new AbortController().signal,
        };
  const known = [...services]
    .map(([service, methods]) => `${service} (${methods.join(', ')})`)
    .join('; ');
  return (req, res) => {
    const path = (req.url ?? '').split('?', 1)[0]!;
    const handler = handlers.get(path);
    if (handler === undefined) {
      if (!isRpcRequest(req, path)) options.fallback(req, res);
      else {
        const message =
          `unknown RPC ${path}: this host serves ${known}; ` +
          'call /<service>/<method> with one of those names';
        answerRpcError(req, res, 'unimplemented', message);
      }
      return;
    }
    const destroy = () => (res as { destroy?: () => void }).destroy?.();
    const direct = options.direct?.streams.get(path);
    if (direct !== undefined && directOptions !== undefined && directStreamRequest(req)) {
      void serveDirectStream(req, res, direct, directOptions).catch(destroy);
      return;
    }
    const unary = options.direct?.unaries?.get(path);
    const format = unary === undefined ? undefined : directUnaryFormat(req);
    if (unary !== undefined && directOptions !== undefined && format !== undefined) {
      void serveDirectUnary(req, res, unary, format, directOptions).catch(destroy);
      return;
    }
    // A write that fails after the client left emits 'error'; the write itself reports it.
    res.on('error', () => {});
    const procedure = `${handler.service.name}/${handler.method.name}`;
    const universal = universalRequestFromNodeRequest(
      req,
      res,
      undefined,
      options.contextValues(req),
    );
    // HTTP/1.1 bodies are read so that a refused one can be read on after the answer.
    const request = 'stream' in req ? universal : { ...universal, body: lingeringBody(req) };
    if (handler.method.methodKind === 'server_streaming') sendUncompressed(request.header);
    const clientLeft = (): boolean =>
      'stream' in req
        ? req.aborted || req.stream.destroyed || req.stream.closed
        : req.aborted || !req.complete;
    checkRequestBody(request, handler.method, { readMaxBytes, compressions, clientLeft })
      .then((checked) => handler(checked))
      .then((response) =>
        writeNodeResponse(response, res, options.stallTimeoutMs, slices, () =>
          'stream' in req ? Promise.resolve() : lingerBeforeEnd(req, res as ServerResponse),
        ),
      )
      .catch((error: unknown) => {
        if (isStalledClient(error)) {
          options.log(`dsh: ${procedure}: closed a stream whose client stopped reading`);
        } else if (!(isClientGone(error) || request.signal.aborted)) {
          options.log(`dsh: ${procedure} failed to send its response: ${describe(error)}`);
        }
        if (!res.headersSent && !request.signal.aborted) {
          res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
          res.end('internal error\n');
        } else {
          (res as { destroy?: (error?: Error) => void }).destroy?.();
        }
      });
  };
}

function describe(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
