/**
 * The catalog rows' client, a child process of its own (as the TUI is): the bench
 * process holds whatever earlier sections left on its heap, and decoding 10,000 summaries
 * there took 40% longer than in a fresh process. It speaks over IPC (`ToListClient`,
 * `FromListClient`) and makes its calls one after another with a binary Connect client.
 */
import { fromBinary } from '@bufbuild/protobuf';
import { createClient, type Client } from '@connectrpc/connect';
import { createConnectTransport } from '@connectrpc/connect-node';
import { ListSessionsResponseSchema, SessionService } from '@dsh/gen/service';

/** What the bench asks of the list client. */
export type ToListClient =
  /** Lists every session until the answer holds `sessions`, then reports `listed`. */
  | { readonly type: 'first'; readonly url: string; readonly sessions: number }
  /** Times `calls` ListSessions, every session (`pageSize` 0) or a page; reports `times`. */
  | {
      readonly type: 'times';
      readonly calls: number;
      readonly pageSize: number;
      readonly json: boolean;
    }
  /** Times the client's decode of one full binary answer (p50 of 20); reports `decode`. */
  | { readonly type: 'decode' }
  | { readonly type: 'exit' };

/** What the list client reports. */
export type FromListClient =
  | { readonly type: 'ready' }
  /** When the first full answer arrived, as `performance.timeOrigin + now()` (epoch ms). */
  | { readonly type: 'listed'; readonly atMs: number }
  | { readonly type: 'times'; readonly samples: number[] }
  | { readonly type: 'decode'; readonly ms: number }
  | { readonly type: 'failed'; readonly message: string };

let url = '';
const clients = new Map<boolean, Client<typeof SessionService>>();

/** The binary (or JSON) client of the host at `url`, made once. */
function client(json = false): Client<typeof SessionService> {
  let made = clients.get(json);
  if (made === undefined) {
    const transport = createConnectTransport({
      baseUrl: url,
      httpVersion: '1.1',
      useBinaryFormat: !json,
    });
    made = createClient(SessionService, transport);
    clients.set(json, made);
  }
  return made;
}

async function handle(message: ToListClient): Promise<FromListClient | undefined> {
  switch (message.type) {
    case 'first': {
      if (url !== message.url) clients.clear();
      url = message.url;
      for (;;) {
        const answer = await client()
          .listSessions({})
          .catch(() => ({ sessions: [] }));
        if (answer.sessions.length >= message.sessions) {
          return { type: 'listed', atMs: performance.timeOrigin + performance.now() };
        }
      }
    }
    case 'times': {
      const samples: number[] = [];
      for (let i = 0; i < message.calls; i += 1) {
        const start = performance.now();
        await client(message.json).listSessions({ pageSize: message.pageSize });
        samples.push(performance.now() - start);
      }
      return { type: 'times', samples };
    }
    case 'decode': {
      const response = await fetch(`${url}/dsh.session.v1.SessionService/ListSessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/proto' },
        body: new Uint8Array(0),
      });
      const bytes = new Uint8Array(await response.arrayBuffer());
      const samples: number[] = [];
      for (let i = 0; i < 20; i += 1) {
        const start = performance.now();
        fromBinary(ListSessionsResponseSchema, bytes);
        samples.push(performance.now() - start);
      }
      samples.sort((a, b) => a - b);
      return { type: 'decode', ms: samples[10]! };
    }
    case 'exit':
      process.exit(0);
      return undefined;
    default: {
      const unknown: never = message;
      throw new Error(`unknown message ${JSON.stringify(unknown)}`);
    }
  }
}

process.on('message', (message: ToListClient) => {
  handle(message).then(
    (reply) => reply !== undefined && process.send!(reply),
    (error: unknown) => process.send!({ type: 'failed', message: String(error) }),
  );
});
process.send!({ type: 'ready' } satisfies FromListClient);
