import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { deltaChunk, usageChunk } from '@dsh/providers/test-kit';

/**
 * What a prompt asks the fake model to do, written into the prompt as `soak:` + JSON:
 * call one tool, stream a long text answer, or hang until the host hangs up.
 */
export type Directive =
  | { readonly tool: string; readonly args: unknown }
  | {
      readonly stream: {
        readonly chunks: number;
        readonly delayMs: number;
        readonly size?: number;
      };
    }
  | { readonly hang: true };

/** The prompt text that carries a directive. */
export function directive(what: Directive): string {
  return `soak:${JSON.stringify(what)}`;
}

/** A local OpenAI-compatible endpoint whose answers follow each session's last prompt. */
export interface FakeModel {
  /** The `--base-url` to give the host. */
  readonly baseUrl: string;
  /** Chat-completion requests answered so far. */
  readonly requests: number;
  /** Tool calls it has asked for so far, by tool name. */
  issued(tool: string): number;
  close(): Promise<void>;
}

interface ChatMessage {
  role?: string;
  content?: unknown;
}

/**
 * Starts the fake model on 127.0.0.1:0. Each request is answered from its own messages,
 * so any number of sessions can run at once: after a tool result it says `done.`;
 * otherwise it follows the directive of the last user message (plain text `ok.` when
 * there is none). The SSE framing and chunk shapes are those of the host's own tests.
 */
export async function startFakeModel(): Promise<FakeModel> {
  let requests = 0;
  let nextCall = 0;
  const issued = new Map<string, number>();
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (part: Buffer) => (body += part.toString('utf8')));
    req.on('end', () => {
      if (req.method !== 'POST' || !req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end('not found');
        return;
      }
      requests++;
      open.add(res);
      res.on('close', () => open.delete(res));
      let messages: ChatMessage[] = [];
      try {
        messages = (JSON.parse(body) as { messages?: ChatMessage[] }).messages ?? [];
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const last = messages.at(-1);
      const wanted = last?.role === 'tool' ? undefined : lastDirective(messages);
      if (wanted && 'tool' in wanted) {
        const id = `call_soak_${++nextCall}`;
        issued.set(wanted.tool, (issued.get(wanted.tool) ?? 0) + 1);
        send(res, [
          deltaChunk({ role: 'assistant', content: null }),
          deltaChunk({
            tool_calls: [
              {
                index: 0,
                id,
                type: 'function',
                function: { name: wanted.tool, arguments: JSON.stringify(wanted.args) },
              },
            ],
          }),
          deltaChunk({}, 'tool_calls'),
          usageChunk(20, 7),
        ]);
        return;
      }
      if (wanted && 'hang' in wanted) {
        res.write(`data: ${JSON.stringify(deltaChunk({ role: 'assistant', content: '' }))}\n\n`);
        return;
      }
      if (wanted && 'stream' in wanted) {
        void streamText(res, wanted.stream.chunks, wanted.stream.delayMs, wanted.stream.size ?? 40);
        return;
      }
      send(res, textChunks([last?.role === 'tool' ? 'done.' : 'ok.']));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    get requests() {
      return requests;
    },
    issued: (tool) => issued.get(tool) ?? 0,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The directive of the current turn: in the user messages after the last assistant or
 * tool message (a session's first turn adds an environment context message after the
 * prompt, also with role user).
 */
function lastDirective(messages: readonly ChatMessage[]): Directive | undefined {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message?.role !== 'user') break;
    const text = typeof message.content === 'string' ? message.content : '';
    const at = text.indexOf('soak:');
    if (at < 0) continue;
    try {
      return JSON.parse(text.slice(at + 'soak:'.length)) as Directive;
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function textChunks(parts: readonly string[]): unknown[] {
  return [
    deltaChunk({ role: 'assistant', content: '' }),
    ...parts.map((content) => deltaChunk({ content })),
    deltaChunk({}, 'stop'),
    usageChunk(10, parts.length),
  ];
}

function send(res: ServerResponse, chunks: readonly unknown[]): void {
  for (const chunk of chunks) res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  res.end('data: [DONE]\n\n');
}

async function streamText(
  res: ServerResponse,
  chunks: number,
  delayMs: number,
  size: number,
): Promise<void> {
  const piece = 'soak '.repeat(Math.ceil(size / 5)).slice(0, size);
  const write = (chunk: unknown): boolean =>
    !res.destroyed && res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  write(deltaChunk({ role: 'assistant', content: '' }));
  for (let i = 0; i < chunks; i++) {
    if (res.destroyed) return;
    write(deltaChunk({ content: `${i} ${piece}\n` }));
    if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
  write(deltaChunk({}, 'stop'));
  write(usageChunk(10, chunks));
  if (!res.destroyed) res.end('data: [DONE]\n\n');
}
