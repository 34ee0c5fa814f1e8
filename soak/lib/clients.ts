import { createClient, type Client } from '@connectrpc/connect';
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
export function sessionClient(url: string, protocol: Protocol = 'connect-json'): SessionClient {
  const transport =
    protocol === 'grpc'
      ? createGrpcTransport({ baseUrl: url })
      : createConnectTransport({
          baseUrl: url,
          httpVersion: protocol === 'connect-binary' ? '2' : '1.1',
          useBinaryFormat: protocol === 'connect-binary',
        });
  return createClient(SessionService, transport);
}

/** The text of a user prompt as the one content block Prompt takes. */
export function textContent(text: string) {
  return [{ block: { case: 'text' as const, value: { text } } }];
}
