import { convert } from 'html-to-text';
import { errorCodes, interruptedMessage, type WebFetchMeta } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import type { Tool } from './tool.js';

/** Arguments of `web_fetch`. */
export interface WebFetchArgs {
  url: string;
  prompt?: string;
}

/** Limits of one fetch: redirects followed, body bytes read, text kept, time allowed. */
export const webFetchLimits = {
  maxRedirects: 5,
  maxBytes: 2_000_000,
  maxChars: 100_000,
  timeoutMs: 30_000,
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

/**
 * `web_fetch`: a real HTTP(S) GET following up to five redirects, HTML turned into
 * text, body and text capped; the metadata names the final URL and status.
 */
export const webFetchTool: Tool<WebFetchArgs, WebFetchMeta> = {
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
    let page: { url: string; status: number; statusText: string; text: string; truncated: boolean };
    try {
      page = await fetchPage(args.url, signal);
    } catch (error) {
      if (error instanceof ToolFailure) throw error;
      if (ctx.signal.aborted) throw new ToolFailure(errorCodes.interrupted, interruptedMessage);
      if (signal.aborted) {
        throw new ToolFailure(
          errorCodes.timeout,
          `fetching ${args.url} took longer than ${webFetchLimits.timeoutMs} ms`,
        );
      }
      const cause = (error as Error & { cause?: Error }).cause?.message ?? (error as Error).message;
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

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

async function fetchPage(start: string, signal: AbortSignal) {
  let url = new URL(start);
  for (let hop = 0; ; hop++) {
    const response = await fetch(url, {
      redirect: 'manual',
      signal,
      headers: {
        'user-agent': 'dsh-web-fetch/0.1',
        accept: 'text/html,text/plain;q=0.9,*/*;q=0.5',
      },
    });
    const location = response.headers.get('location');
    if (!redirectStatuses.has(response.status) || location === null) {
      const { text, truncated } = await readText(response);
      return {
        url: url.href,
        status: response.status,
        statusText: response.statusText,
        text,
        truncated,
      };
    }
    await response.body?.cancel();
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

async function readText(response: Response): Promise<{ text: string; truncated: boolean }> {
  const type = (response.headers.get('content-type') ?? 'text/plain').toLowerCase();
  const isHtml = type.includes('html');
  if (!isHtml && !/^text\/|json|xml|javascript|ecmascript|yaml|csv/.test(type)) {
    await response.body?.cancel();
    throw new ToolFailure(
      'unsupported_content',
      `${response.url || 'the page'} is ${type}, not text`,
    );
  }
  const chunks: Uint8Array[] = [];
  let bytes = 0;
  let truncated = false;
  const reader = response.body?.getReader();
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    if (bytes + value.length > webFetchLimits.maxBytes) {
      chunks.push(value.subarray(0, webFetchLimits.maxBytes - bytes));
      truncated = true;
      await reader.cancel();
      break;
    }
    chunks.push(value);
    bytes += value.length;
  }
  const raw = decode(Buffer.concat(chunks), type);
  let text = isHtml
    ? convert(raw, {
        wordwrap: false,
        selectors: [
          { selector: 'a', options: { ignoreHref: true } },
          { selector: 'img', format: 'skip' },
        ],
      })
    : raw;
  if (text.length > webFetchLimits.maxChars) {
    text = text.slice(0, webFetchLimits.maxChars);
    truncated = true;
  }
  return { text, truncated };
}

function decode(bytes: Buffer, type: string): string {
  const charset = /charset=["']?([\w-]+)/.exec(type)?.[1] ?? 'utf-8';
  try {
    return new TextDecoder(charset).decode(bytes);
  } catch {
    return new TextDecoder('utf-8').decode(bytes);
  }
}
