import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiProvider, ProviderError, type ProviderChunk } from '../src/index.js';
import {
  deltaChunk,
  startFakeOpenAiServer,
  textReply,
  toolReply,
  usageChunk,
  type FakeOpenAiServer,
} from './fake-openai-server.js';

let server: FakeOpenAiServer;
afterEach(async () => server.close());

async function collect(
  baseUrl: string,
  options: { maxAttempts?: number } = {},
): Promise<ProviderChunk[]> {
  const provider = createOpenAiProvider({
    baseUrl,
    model: 'fake-model',
    apiKey: 'secret',
    retryBaseMs: 1,
    ...options,
  });
  const out: ProviderChunk[] = [];
  const request = {
    model: 'fake-model',
    messages: [{ role: 'user' as const, content: 'hi' }],
    tools: [],
    signal: new AbortController().signal,
  };
  for await (const chunk of provider.stream(request)) out.push(chunk);
  return out;
}

/** A compact rendering of chunks: one short string each. */
function render(chunks: ProviderChunk[]): string[] {
  return chunks.map((c) => {
    switch (c.case) {
      case 'blockStart':
        return `start ${c.value.index} type=${c.value.blockType}`;
      case 'textDelta':
        return `text ${c.value.index} ${JSON.stringify(c.value.text)}`;
      case 'reasoningDelta':
        return `reasoning ${c.value.index} ${JSON.stringify(c.value.text)}`;
      case 'toolCallDelta':
        return `tool ${c.value.index} id=${c.value.id} name=${c.value.name ?? '-'} ${JSON.stringify(c.value.argumentsDelta)}`;
      case 'blockEnd':
        return `end ${c.value.index} ${JSON.stringify(c.value.block?.block.value)}`;
      case 'usage':
        return `usage in=${c.value.inputTokens} out=${c.value.outputTokens} cache=${c.value.cacheReadTokens} reasoning=${c.value.reasoningTokens}`;
      case 'finish':
        return `finish ${c.value.reason}`;
      default: {
        const never: never = c;
        return String(never);
      }
    }
  });
}

describe('createOpenAiProvider()', () => {
  it('maps a text stream with usage (cached tokens split out)', async () => {
    server = await startFakeOpenAiServer();
    server.reply(textReply(['Hel', 'lo'], usageChunk(100, 2, 40)));
    expect(render(await collect(server.baseUrl))).toMatchInlineSnapshot(`
      [
        "start 0 type=1",
        "text 0 "Hel"",
        "text 0 "lo"",
        "end 0 {"$typeName":"dsh.session.v1.TextBlock","text":"Hello"}",
        "usage in=60 out=2 cache=40 reasoning=0",
        "finish stop",
      ]
    `);
    expect(server.requests[0]).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('maps DeepSeek reasoning_content and tool-call arguments split across chunks', async () => {
    server = await startFakeOpenAiServer();
    const reply = toolReply(
      [
        { id: 'c1', name: 'read', args: '{"file_path":"a.ts"}' },
        { id: 'c2', name: 'glob', args: '{"pattern":"*"}' },
      ],
      { pieceLength: 8 },
    );
    if (reply.kind !== 'stream') throw new Error('unreachable');
    reply.chunks.splice(
      1,
      0,
      deltaChunk({ reasoning_content: 'Think' }),
      deltaChunk({ reasoning_content: 'ing.' }),
    );
    server.reply(reply);
    expect(render(await collect(server.baseUrl))).toMatchInlineSnapshot(`
      [
        "start 0 type=2",
        "reasoning 0 "Think"",
        "reasoning 0 "ing."",
        "end 0 {"$typeName":"dsh.session.v1.ReasoningBlock","text":"Thinking.","signature":""}",
        "start 1 type=3",
        "tool 1 id=c1 name=read """,
        "tool 1 id=c1 name=- "{\\"file_p"",
        "tool 1 id=c1 name=- "ath\\":\\"a."",
        "tool 1 id=c1 name=- "ts\\"}"",
        "start 2 type=3",
        "tool 2 id=c2 name=glob """,
        "tool 2 id=c2 name=- "{\\"patter"",
        "tool 2 id=c2 name=- "n\\":\\"*\\"}"",
        "end 1 {"$typeName":"dsh.session.v1.ToolCallBlock","id":"c1","name":"read","arguments":"{\\"file_path\\":\\"a.ts\\"}"}",
        "end 2 {"$typeName":"dsh.session.v1.ToolCallBlock","id":"c2","name":"glob","arguments":"{\\"pattern\\":\\"*\\"}"}",
        "usage in=20 out=7 cache=0 reasoning=0",
        "finish tool_calls",
      ]
    `);
  });

  it.each([
    {
      name: 'a stream cut before finish',
      reply: { kind: 'stream' as const, chunks: [deltaChunk({ content: 'x' })], done: false },
      code: 'provider_unavailable',
      message: /closed the stream/,
    },
    {
      name: 'a stream cut inside its last event (the truncated event is discarded)',
      reply: {
        kind: 'stream' as const,
        chunks: [deltaChunk({ content: 'x' })],
        done: false,
        tail: `data: ${JSON.stringify({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}`,
      },
      code: 'provider_unavailable',
      message: /closed the stream/,
    },
    {
      name: 'a malformed chunk',
      reply: { kind: 'stream' as const, chunks: ['{not json'] },
      code: 'provider_unavailable',
      message: /malformed stream chunk/,
    },
    {
      name: 'an error object mid-stream',
      reply: { kind: 'stream' as const, chunks: [{ error: { message: 'overloaded' } }] },
      code: 'provider_unavailable',
      message: /overloaded/,
    },
    {
      name: 'HTTP 401',
      reply: { kind: 'status' as const, status: 401 },
      code: 'unauthenticated',
      message: /DSH_API_KEY/,
    },
  ])('fails with a ProviderError on $name', async (c) => {
    server = await startFakeOpenAiServer();
    server.reply(c.reply);
    const error = await collect(server.baseUrl).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: c.code, message: expect.stringMatching(c.message) });
  });

  it('retries 5xx and 429 then succeeds; gives up after maxAttempts', async () => {
    server = await startFakeOpenAiServer();
    server.reply(
      { kind: 'status', status: 503 },
      { kind: 'status', status: 429, headers: { 'retry-after': '0' } },
      textReply(['ok']),
    );
    expect(render(await collect(server.baseUrl)).at(-1)).toBe('finish stop');
    expect(server.requests).toHaveLength(3);
    server.reply({ kind: 'status', status: 502 }, { kind: 'status', status: 502 });
    const error = await collect(server.baseUrl, { maxAttempts: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('gave up after 2 attempts'),
    });
  });

  it('reports an unreachable server as provider_unavailable after retrying', async () => {
    server = await startFakeOpenAiServer();
    const deadUrl = server.baseUrl;
    await server.close();
    const error = await collect(deadUrl, { maxAttempts: 2 }).catch((e: unknown) => e);
    expect(error).toMatchObject({
      code: 'provider_unavailable',
      message: expect.stringContaining('Cannot reach the model provider'),
    });
    server = await startFakeOpenAiServer();
  });
});
