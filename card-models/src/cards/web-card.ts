import type { ToolCallBlock } from '../conversation/types.js';
import {
  isObject,
  resultText,
  stringField,
  successMeta,
  topLevelArgs,
  type JsonObject,
} from './card-json.js';

/** One search source. `href` is set only for http/https URLs; others are shown as text. */
export interface WebSource {
  readonly url: string;
  readonly href: string | undefined;
  readonly title: string;
  /** The title, or the URL when the title is empty. */
  readonly label: string;
  readonly snippet: string;
  readonly publishedAt: string | undefined;
}

/** Props of a `web_search` card: the queries, then sources and answer once settled. */
export type WebSearchCard =
  | {
      readonly kind: 'web';
      readonly tool: 'web_search';
      readonly state: 'running';
      readonly queries: readonly string[];
    }
  | {
      readonly kind: 'web';
      readonly tool: 'web_search';
      readonly state: 'ok';
      readonly queries: readonly string[];
      /** Sources in the order the tool gave them. */
      readonly sources: readonly WebSource[];
      readonly answer: string | undefined;
      readonly truncated: boolean;
    };

/** Props of a `web_fetch` card: the URL, then final URL, status and body once settled. */
export type WebFetchCard =
  | {
      readonly kind: 'web';
      readonly tool: 'web_fetch';
      readonly state: 'running';
      readonly url: string;
      readonly href: string | undefined;
    }
  | {
      readonly kind: 'web';
      readonly tool: 'web_fetch';
      readonly state: 'ok';
      /** The URL the call asked for. */
      readonly requestedUrl: string;
      /** The final URL after redirects. */
      readonly url: string;
      readonly href: string | undefined;
      /**
       * The final URL is another page than the requested one: compared after normalising
       * case of scheme and host, default ports, a trailing slash, an empty query and the
       * fragment, so `https://a.dev/docs` answered from `https://a.dev/docs/` is not a redirect.
       */
      readonly redirected: boolean;
      readonly statusCode: number;
      readonly truncated: boolean;
      /** The page text as the model got it, for details. */
      readonly body: string;
    };

/** Props of a web card (SPEC 7.2 "Web"). */
export type WebCard = WebSearchCard | WebFetchCard;

/**
 * The web card of a `web_search` or `web_fetch` call, or `undefined` for the Generic
 * card: errors, sub-calls, malformed arguments, missing or malformed meta. Never throws.
 */
export function webCard(block: ToolCallBlock): WebCard | undefined {
  const args = topLevelArgs(block);
  if (!args) return undefined;
  if (block.name === 'web_search') return searchCard(block, args);
  if (block.name === 'web_fetch') return fetchCard(block, args);
  return undefined;
}

/** `url` as a link target when it is an absolute http or https URL, else `undefined`. */
export function httpHref(url: string): string | undefined {
  return /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(url) ? url : undefined;
}

const urlParts = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)(\?[^#]*)?(?:#.*)?$/is;
const defaultPorts: Readonly<Record<string, string>> = { http: ':80', https: ':443' };

/** A URL in a form where two spellings of the same page compare equal; others unchanged. */
function normalUrl(url: string): string {
  const match = urlParts.exec(url.trim());
  if (!match) return url;
  const scheme = (match[1] ?? '').toLowerCase();
  let authority = (match[2] ?? '').toLowerCase();
  const port = defaultPorts[scheme];
  if (port !== undefined && authority.endsWith(port)) authority = authority.slice(0, -port.length);
  const path = (match[3] ?? '').replace(/\/+$/, '');
  const query = match[4] === '?' ? '' : (match[4] ?? '');
  return `${scheme}://${authority}${path}${query}`;
}

function searchCard(block: ToolCallBlock, args: JsonObject): WebSearchCard | undefined {
  const queries = searchQueries(args);
  if (!queries) return undefined;
  if (block.status === 'running')
    return { kind: 'web', tool: 'web_search', state: 'running', queries };
  const meta = successMeta(block);
  if (!meta || !Array.isArray(meta.sources) || typeof meta.truncated !== 'boolean') {
    return undefined;
  }
  if (meta.answer !== undefined && typeof meta.answer !== 'string') return undefined;
  const sources: WebSource[] = [];
  for (const entry of meta.sources) {
    const source = webSource(entry);
    if (!source) return undefined;
    sources.push(source);
  }
  return {
    kind: 'web',
    tool: 'web_search',
    state: 'ok',
    queries,
    sources,
    answer: meta.answer || undefined,
    truncated: meta.truncated,
  };
}

/** `query` or a non-empty `queries` list of strings. */
function searchQueries(args: JsonObject): string[] | undefined {
  const query = stringField(args, 'query');
  if (query) return [query];
  const { queries } = args;
  if (!Array.isArray(queries) || queries.length === 0) return undefined;
  return queries.every((q): q is string => typeof q === 'string') ? queries : undefined;
}

function webSource(entry: unknown): WebSource | undefined {
  if (!isObject(entry)) return undefined;
  const { url, title, snippet, publishedAt } = entry;
  if (typeof url !== 'string' || typeof title !== 'string' || typeof snippet !== 'string') {
    return undefined;
  }
  if (publishedAt !== undefined && typeof publishedAt !== 'string') return undefined;
  return { url, href: httpHref(url), title, label: title || url, snippet, publishedAt };
}

function fetchCard(block: ToolCallBlock, args: JsonObject): WebFetchCard | undefined {
  const requestedUrl = stringField(args, 'url');
  if (!requestedUrl) return undefined;
  if (block.status === 'running') {
    return {
      kind: 'web',
      tool: 'web_fetch',
      state: 'running',
      url: requestedUrl,
      href: httpHref(requestedUrl),
    };
  }
  const meta = successMeta(block);
  const url = meta && stringField(meta, 'url');
  if (!meta || !url || !Number.isInteger(meta.statusCode)) return undefined;
  if (typeof meta.truncated !== 'boolean') return undefined;
  return {
    kind: 'web',
    tool: 'web_fetch',
    state: 'ok',
    requestedUrl,
    url,
    href: httpHref(url),
    redirected: normalUrl(url) !== normalUrl(requestedUrl),
    statusCode: meta.statusCode as number,
    truncated: meta.truncated,
    body: resultText(block.result?.content ?? []),
  };
}
