import type { IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import { errorCodes, interruptedMessage, type WebFetchMeta } from '@dsh/card-models/contract';
import { checkedGet, type RequestPolicy } from './checked-request.js';
import { runOnWorker } from './run-on-worker.js';
import type { NetworkRule } from './network-rules.js';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import type { Tool } from './tool.js';

/** Arguments of `web_fetch`. */
export interface WebFetchArgs {
  url: string;
  prompt?: string;
}

/**
 * Limits of one fetch: redirects followed, body bytes read, text kept, time allowed, and
 * time for turning HTML into text (on a worker thread).
 */
export const webFetchLimits = {
  maxRedirects: 5,
  maxBytes: 2_000_000,
  maxChars: 100_000,
  timeoutMs: 30_000,
  convertMs: 10_000,
} as const;

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    url: { type: 'string', minLength: 1, description: 'The http or https URL to fetch.' },
    prompt: { type: 'string', description: 'What to look for in the page (kept for context).' },
  },
  required: ['url'],
  additionalProperties: false,
};

/** Options of `createWebFetchTool`. */
export interface WebFetchOptions {
  /** Loopback, private and other non-public addresses that may be reached anyway. */
  allowNetworks?: readonly NetworkRule[];
  /** Exact URLs fetched whatever address they resolve to (the host's own status page). */
  trustedUrls?: () => readonly string[];
}

/**
 * `web_fetch`: a real HTTP(S) GET following up to five redirects, HTML turned into
 * text, body and text capped; the metadata names the final URL and status. Every hop
 * connects only to a public address unless `allowNetworks` allows it.
 */
export function createWebFetchTool(
  options: WebFetchOptions = {},
): Tool<WebFetchArgs, WebFetchMeta> {
  const policy: RequestPolicy = {
    rules: options.allowNetworks ?? [],
    trustedUrls: options.trustedUrls ?? (() => []),
  };
  return {
    name: 'web_fetch',
    description: 'Fetches an http(s) URL and returns the page as plain text.',
    ...toolSchema<WebFetchArgs>(schema, (args) => {
      let url: URL;
      try {
        url = new URL(args.url);
      } catch {
        return `url "${args.url}" is not a valid absolute URL`;
      }
      return url.protocol === 'http:' || url.protocol === 'https:'
        ? undefined
        : `url must use http or https, got ${url.protocol}`;
    }),
    async execute(args, ctx) {
      const signal = AbortSignal.any([ctx.signal, AbortSignal.timeout(webFetchLimits.timeoutMs)]);
      let page: {
        url: string;
        status: number;
        statusText: string;
        text: string;
        truncated: boolean;
      };
      try {
        page = await fetchPage(args.url, signal, policy, ctx.signal);
      } catch (error) {
        if (error instanceof ToolFailure) throw error;
        if (ctx.signal.aborted) throw new ToolFailure(errorCodes.interrupted, interruptedMessage);
        if (signal.aborted) {
          throw new ToolFailure(
            errorCodes.timeout,
            `fetching ${args.url} took longer than ${webFetchLimits.timeoutMs} ms`,
          );
        }
        const cause =
          (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
        throw new ToolFailure('fetch_failed', `could not fetch ${args.url}: ${cause}`);
      }
      const meta: WebFetchMeta = {
        url: page.url,
        statusCode: page.status,
        truncated: page.truncated,
      };
      const body = page.truncated ? `${page.text}\n[content truncated]` : page.text;
      if (page.status >= 400) {
        const failure = new ToolFailure(
          'http_error',
          `${page.url} answered HTTP ${page.status} ${page.statusText}`,
        );
        return {
          content: `HTTP ${page.status} ${page.statusText}\n\n${body}`,
          isError: true,
          error: failure.toInfo(),
          value: meta,
        };
      }
      return { content: body, isError: false, value: meta };
    },
    presentationMeta: (_args, meta) => meta,
  };
}

/** `web_fetch` with the default network policy: public addresses only. */
export const webFetchTool = createWebFetchTool();

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

async function fetchPage(
  start: string,
  signal: AbortSignal,
  policy: RequestPolicy,
  callSignal: AbortSignal,
) {
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    const response = await checkedGet(
      url,
      {
        'user-agent': 'dsh-web-fetch/0.1',
        accept: 'text/html,text/plain;q=0.9,*/*;q=0.5',
        'accept-encoding': 'gzip, deflate, br',
      },
      signal,
      policy,
    );
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (!redirectStatuses.has(status) || location === undefined) {
      const { text, truncated } = await readText(response, url, callSignal);
      return { url: url.href, status, statusText: response.statusMessage ?? '', text, truncated };
    }
    response.destroy();
    if (hop >= webFetchLimits.maxRedirects) {
      throw new ToolFailure(
        'too_many_redirects',
        `${start} redirected more than ${webFetchLimits.maxRedirects} times`,
      );
    }
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new ToolFailure(
        'fetch_failed',
        `${url.href} redirected to a ${next.protocol} URL, which is not followed`,
      );
    }
    url = next;
  }
}

async function readText(
  response: IncomingMessage,
  url: URL,
  signal: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  const type = (response.headers['content-type'] ?? 'text/plain').toLowerCase();
  const isHtml = type.includes('html');
  if (!isHtml && !/^text\/|json|xml|javascript|ecmascript|yaml|csv/.test(type)) {
    response.destroy();
    throw new ToolFailure('unsupported_content', `${url.href} is ${type}, not text`);
  }
  const chunks: Buffer[] = [];
  let bytes = 0;
  let truncated = false;
  const body = decoded(response);
  try {
    for await (const chunk of body as AsyncIterable<Buffer>) {
      if (bytes + chunk.length > webFetchLimits.maxBytes) {
        chunks.push(chunk.subarray(0, webFetchLimits.maxBytes - bytes));
        truncated = true;
        break;
      }
      chunks.push(chunk);
      bytes += chunk.length;
    }
  } finally {
    body.destroy();
    response.destroy();
  }
  const raw = decode(Buffer.concat(chunks), type);
  let text = isHtml ? await htmlText(raw, url, signal) : raw;
  if (text.length > webFetchLimits.maxChars) {
    text = text.slice(0, webFetchLimits.maxChars);
    truncated = true;
  }
  return { text, truncated };
}

/** The text of an HTML page, worked out on a worker thread: a page decides what it costs. */
async function htmlText(html: string, url: URL, signal: AbortSignal): Promise<string> {
  const { text } = await runOnWorker(
    { kind: 'html', html },
    {
      timeoutMs: webFetchLimits.convertMs,
      signal,
      what: `turning the HTML of ${url.href} into text`,
      hint: 'fetch a smaller or simpler page',
      failureCode: 'fetch_failed',
    },
  );
  return text;
}

/** The body with its content encoding (gzip, deflate, br) undone, as fetch does. */
function decoded(response: IncomingMessage): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  const decoder =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) return response;
  response.on('error', (error) => decoder.destroy(error));
  return response.pipe(decoder);
}

function decode(bytes: Buffer, type: string): string {
  const charset = /charset=["']?([\w-]+)/.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
