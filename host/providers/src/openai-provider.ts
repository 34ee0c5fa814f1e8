import { randomUUID } from 'node:crypto';
import { createOpenAiChunkMapper } from './openai-chunks.js';
import type { ModelProvider, ProviderChunk, ProviderMessage, ProviderRequest } from './provider.js';
import { ProviderError } from './provider-error.js';
import { retryDelay, sleep } from './retry-delay.js';
import { sseEvents } from './sse-events.js';

/** Settings of an OpenAI-compatible chat-completions endpoint. */
export interface OpenAiProviderOptions {
  /** For example `https://api.deepseek.com/v1` or `http://127.0.0.1:11434/v1`. */
  readonly baseUrl: string;
  readonly model: string;
  /** Sent as a bearer token; local servers often need none. */
  readonly apiKey?: string;
  /** Attempts per step on 429, 5xx and network errors (default 4). */
  readonly maxAttempts?: number;
  /** First backoff delay (default 1000 ms), doubled per retry, capped by `maxRetryDelayMs`. */
  readonly retryBaseMs?: number;
  readonly maxRetryDelayMs?: number;
}

/**
 * A provider for any OpenAI-compatible `POST {baseUrl}/chat/completions` streaming API
 * (OpenAI, DeepSeek, llama.cpp, Ollama). Retries happen only before the first chunk, so a
 * step never yields a chunk twice.
 */
export function createOpenAiProvider(options: OpenAiProviderOptions): ModelProvider {
  const maxAttempts = options.maxAttempts ?? 4;
  const baseMs = options.retryBaseMs ?? 1000;
  const maxMs = options.maxRetryDelayMs ?? 30_000;
  const url = `${options.baseUrl.replace(/\/+$/, '')}/chat/completions`;

  async function open(request: ProviderRequest): Promise<Response> {
    const body = JSON.stringify(requestBody(request));
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'text/event-stream',
    };
    if (options.apiKey) headers['authorization'] = `Bearer ${options.apiKey}`;
    const attempt = async (): Promise<
      Response | { failure: ProviderError; retryAfter: string | null }
    > => {
      let response: Response;
      try {
        response = await fetch(url, { method: 'POST', headers, body, signal: request.signal });
      } catch (cause) {
        if (request.signal.aborted) throw ProviderError.from(cause, request.signal);
        const reason =
          cause instanceof Error
            ? (cause.cause instanceof Error ? cause.cause : cause).message
            : String(cause);
        const message = `Cannot reach the model provider at ${url}: ${reason}. Check the base URL and that the server is running.`;
        return { failure: new ProviderError('provider_unavailable', message), retryAfter: null };
      }
      if (response.ok && response.body) return response;
      const text = (await response.text().catch(() => '')).slice(0, 500);
      const failure = statusError(response.status, url, text);
      if (!(response.status === 429 || response.status >= 500)) throw failure;
      return { failure, retryAfter: response.headers.get('retry-after') };
    };
    for (let n = 1; ; n++) {
      const outcome = await attempt();
      if (outcome instanceof Response) return outcome;
      if (n >= maxAttempts) {
        const { code, message } = outcome.failure;
        throw new ProviderError(code, `${message} (gave up after ${n} attempts)`);
      }
      await sleep(retryDelay(n, outcome.retryAfter, baseMs, maxMs), request.signal).catch(
        (cause: unknown) => {
          throw ProviderError.from(cause, request.signal);
        },
      );
    }
  }

  return {
    model: options.model,
    async *stream(request): AsyncGenerator<ProviderChunk> {
      const response = await open(request);
      const mapper = createOpenAiChunkMapper(() => `call_${randomUUID().slice(0, 8)}`);
      let done = false;
      try {
        for await (const data of sseEvents(response.body as unknown as AsyncIterable<Uint8Array>)) {
          if (data.trim() === '[DONE]') {
            done = true;
            break;
          }
          let json: unknown;
          try {
            json = JSON.parse(data);
          } catch {
            throw new ProviderError(
              'provider_unavailable',
              `The model provider sent a malformed stream chunk: ${data.slice(0, 200)}`,
            );
          }
          yield* mapper.map(json);
        }
      } catch (cause) {
        throw ProviderError.from(cause, request.signal);
      }
      if (!done && !mapper.sawFinish) {
        throw new ProviderError(
          'provider_unavailable',
          'The model provider closed the stream before the step finished.',
        );
      }
      yield* mapper.end();
    },
  };
}

function statusError(status: number, url: string, body: string): ProviderError {
  const detail = body ? `: ${body}` : '';
  if (status === 429)
    return new ProviderError(
      'rate_limited',
      `The model provider is rate limiting requests (HTTP 429)${detail}. Wait and try again, or raise your plan's limits.`,
    );
  if (status === 401 || status === 403)
    return new ProviderError(
      'unauthenticated',
      `The model provider refused the API key (HTTP ${status})${detail}. Set DSH_API_KEY or "apiKey" in ~/.dsh/config.json.`,
    );
  if (status >= 500)
    return new ProviderError(
      'provider_unavailable',
      `The model provider failed (HTTP ${status} from ${url})${detail}.`,
    );
  return new ProviderError(
    'provider_rejected',
    `The model provider rejected the request (HTTP ${status} from ${url})${detail}. Check the model name and base URL.`,
  );
}

function requestBody(request: ProviderRequest): Record<string, unknown> {
  const body: Record<string, unknown> = {
    model: request.model,
    stream: true,
    stream_options: { include_usage: true },
    messages: request.messages.map(wireMessage),
  };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map((tool) => ({
      type: 'function',
      function: { name: tool.name, description: tool.description, parameters: tool.parameters },
    }));
  }
  return body;
}

function wireMessage(message: ProviderMessage): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return message.toolCalls.length === 0
        ? { role: 'assistant', content: message.content }
        : {
            role: 'assistant',
            content: message.content === '' ? null : message.content,
            tool_calls: message.toolCalls.map((call) => ({
              id: call.id,
              type: 'function',
              function: { name: call.name, arguments: call.arguments },
            })),
          };
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
    default: {
      const unknownRole: never = message;
      throw new Error(`unknown message role ${JSON.stringify(unknownRole)}`);
    }
  }
}
