import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake server. */
export type FakeReply =
  | { kind: 'status'; status: number; body?: string; headers?: Record<string, string> }
  /**
   * SSE `data` payloads (objects are sent as JSON, strings raw); `hang` keeps the stream
   * open after them until the client leaves; `tail` is written raw (unframed) at the end.
   */
  | { kind: 'stream'; chunks: unknown[]; done?: boolean; hang?: boolean; tail?: string };

/** A local OpenAI-compatible chat-completions server that plays scripted replies in order. */
export interface FakeOpenAiServer {
  readonly baseUrl: string;
  /** Parsed request bodies, in arrival order. */
  readonly requests: Record<string, unknown>[];
  reply(...replies: FakeReply[]): void;
  /**
   * Answers every request no scripted reply is left for by calling `handler` with its
   * parsed body (a model that reacts to what it is sent).
   */
  handle(handler: (body: Record<string, unknown>) => FakeReply): void;
  /** How many `hang` streams their client has disconnected from. */
  readonly disconnects: number;
  close(): Promise<void>;
}

/** Starts the fake server on 127.0.0.1, port 0. */
export async function startFakeOpenAiServer(): Promise<FakeOpenAiServer> {
  const replies: FakeReply[] = [];
  const requests: Record<string, unknown>[] = [];
  const open = new Set<ServerResponse>();
  let disconnects = 0;
  let handler: ((body: Record<string, unknown>) => FakeReply) | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end('not found');
        return;
      }
      const parsed = JSON.parse(body) as Record<string, unknown>;
      requests.push(parsed);
      const reply = replies.shift() ??
        handler?.(parsed) ?? {
          kind: 'status',
          status: 500,
          body: 'no scripted reply left',
        };
      if (reply.kind === 'status') {
        res.writeHead(reply.status, { 'content-type': 'application/json', ...reply.headers });
        res.end(reply.body ?? JSON.stringify({ error: { message: `status ${reply.status}` } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const chunk of reply.chunks) {
        res.write(`data: ${typeof chunk === 'string' ? chunk : JSON.stringify(chunk)}\n\n`);
      }
      if (reply.hang) {
        open.add(res);
        res.on('close', () => {
          disconnects++;
          open.delete(res);
        });
        return;
      }
      if (reply.done !== false) res.write('data: [DONE]\n\n');
      res.end(reply.tail);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    reply: (...more) => replies.push(...more),
    handle: (next) => {
      handler = next;
    },
    get disconnects() {
      return disconnects;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

const base = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'fake-model' };

/** A chunk whose only choice carries `delta` (and a finish reason when given). */
export function deltaChunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
): unknown {
  return { ...base, choices: [{ index: 0, delta, finish_reason: finishReason }] };
}

/** The trailing usage chunk of `stream_options.include_usage`. */
export function usageChunk(prompt: number, completion: number, cached = 0): unknown {
  return {
    ...base,
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
      prompt_tokens_details: { cached_tokens: cached },
    },
  };
}

/** A streamed text answer, split into `parts`, ending with stop and usage. */
export function textReply(parts: string[], usage = usageChunk(10, parts.length)): FakeReply {
  return {
    kind: 'stream',
    chunks: [
      deltaChunk({ role: 'assistant', content: '' }),
      ...parts.map((content) => deltaChunk({ content })),
      deltaChunk({}, 'stop'),
      usage,
    ],
  };
}

/**
 * A streamed answer that calls tools; each call's argument text is split into pieces of
 * `pieceLength` characters across chunks, the way real providers stream it.
 */
export function toolReply(
  calls: { id: string; name: string; args: string }[],
  options: { text?: string; pieceLength?: number; usage?: unknown } = {},
): FakeReply {
  const chunks: unknown[] = [deltaChunk({ role: 'assistant', content: null })];
  if (options.text) chunks.push(deltaChunk({ content: options.text }));
  calls.forEach((call, index) => {
    chunks.push(
      deltaChunk({
        tool_calls: [
          { index, id: call.id, type: 'function', function: { name: call.name, arguments: '' } },
        ],
      }),
    );
    const size = options.pieceLength ?? 5;
    for (let at = 0; at < call.args.length; at += size) {
      chunks.push(
        deltaChunk({
          tool_calls: [{ index, function: { arguments: call.args.slice(at, at + size) } }],
        }),
      );
    }
  });
  chunks.push(deltaChunk({}, 'tool_calls'), options.usage ?? usageChunk(20, 7));
  return { kind: 'stream', chunks };
}
