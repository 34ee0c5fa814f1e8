import { ConnectError, createClient, type Client, type Interceptor } from '@connectrpc/connect';
import { createConnectTransport, createGrpcTransport } from '@connectrpc/connect-node';
import { SessionService } from '@dsh/gen/service';

/** The wire protocols the host speaks, each through the generated client. */
export type Protocol = 'connect-json' | 'connect-binary' | 'grpc';

/** Every protocol the soak drives. */
export const protocols: readonly Protocol[] = ['connect-json', 'connect-binary', 'grpc'];

/** A SessionService client. */
export type SessionClient = Client<typeof SessionService>;

/**
 * A client over one protocol: Connect JSON over HTTP/1.1, Connect binary over h2c, or
 * gRPC over h2c (gRPC needs HTTP/2).
 */
export function sessionClient(
  url: string,
  protocol: Protocol = 'connect-json',
  options: { idleConnectionTimeoutMs?: number } = {},
): SessionClient {
  const interceptors = [retryRefusedStreams];
  const transport =
    protocol === 'grpc'
      ? createGrpcTransport({ baseUrl: url, interceptors, ...options })
      : createConnectTransport({
          baseUrl: url,
          httpVersion: protocol === 'connect-binary' ? '2' : '1.1',
          useBinaryFormat: protocol === 'connect-binary',
          interceptors,
          ...options,
        });
  return createClient(SessionService, transport);
}

/** The text of a user prompt as the one content block Prompt takes. */
export function textContent(text: string) {
  return [{ block: { case: 'text' as const, value: { text } } }];
}

/**
 * Retries a unary call whose HTTP/2 stream the host refused: RFC 9113 (8.7) guarantees a
 * refused stream was not processed, and one races with the host's GOAWAY of an idle
 * session whenever the client's event loop is busy (as a soak client's is).
 */
const retryRefusedStreams: Interceptor = (next) => async (request) => {
  for (let attempt = 1; ; attempt++) {
    try {
      return await next(request);
    } catch (error) {
      const refused =
        !request.stream &&
        attempt < 3 &&
        error instanceof ConnectError &&
        error.message.includes('NGHTTP2_REFUSED_STREAM');
      if (!refused) throw error;
    }
  }
};
