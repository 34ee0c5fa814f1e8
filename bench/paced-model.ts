import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { textReply } from '@dsh/providers/test-kit';

/**
 * An OpenAI-compatible chat-completions server on 127.0.0.1 that streams scripted text
 * answers at a set pace: one SSE chunk every `intervalMs`, so the host's agent loop
 * appends one `assistant/chunk` at a time at a steady rate (0: all chunks in one write,
 * so the loop runs as fast as it can).
 */
export interface PacedModel {
  readonly baseUrl: string;
  /** Queues the answer to the next request: a text of `parts`, paced. */
  next(parts: readonly string[], intervalMs: number): void;
  close(): Promise<void>;
}

/** Starts the paced model server; a request with no answer queued gets a 500. */
export async function startPacedModel(): Promise<PacedModel> {
  const queue: { parts: readonly string[]; intervalMs: number }[] = [];
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const answer = queue.shift();
      if (req.method !== 'POST' || answer === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: 'no answer queued' } }));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const reply = textReply([...answer.parts]);
      const lines = [
        ...(reply.kind === 'stream' ? reply.chunks : []).map(
          (c) => `data: ${JSON.stringify(c)}\n\n`,
        ),
        'data: [DONE]\n\n',
      ];
      if (answer.intervalMs === 0) {
        res.end(lines.join(''));
        return;
      }
      open.add(res);
      res.on('close', () => open.delete(res));
      let at = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(lines[at++]);
        if (at === lines.length) {
          clearInterval(timer);
          res.end();
        }
      }, answer.intervalMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    next: (parts, intervalMs) => void queue.push({ parts, intervalMs }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
