import type { WebSearchMeta } from '@dsh/card-models/contract';

/** A web search backend for `web_search`: queries in, sources (and maybe an answer) out. */
export interface SearchProvider {
  /** A short name shown in errors, e.g. "searxng". */
  name: string;
  search(queries: string[], signal: AbortSignal): Promise<WebSearchMeta>;
}

/** Sources kept per query. */
const perQuery = 8;

/**
 * A provider backed by a SearXNG instance's JSON API (`/search?q=...&format=json`;
 * the instance must allow the json format).
 */
export function createSearxngProvider(baseUrl: string): SearchProvider {
  return {
    name: 'searxng',
    async search(queries, signal) {
      const result: WebSearchMeta = { sources: [], truncated: false };
      const seen = new Set<string>();
      for (const query of queries) {
        const url = new URL('search', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`);
        url.searchParams.set('q', query);
        url.searchParams.set('format', 'json');
        const response = await fetch(url, { signal, headers: { accept: 'application/json' } });
        if (!response.ok)
          throw new Error(`searxng answered HTTP ${response.status} for "${query}"`);
        const body = (await response.json()) as { results?: unknown; answers?: unknown };
        const rows = Array.isArray(body.results) ? (body.results as Record<string, unknown>[]) : [];
        if (rows.length > perQuery) result.truncated = true;
        for (const row of rows.slice(0, perQuery)) {
          if (typeof row.url !== 'string' || seen.has(row.url)) continue;
          seen.add(row.url);
          const source: WebSearchMeta['sources'][number] = {
            url: row.url,
            title: typeof row.title === 'string' ? row.title : row.url,
            snippet: typeof row.content === 'string' ? row.content : '',
          };
          if (typeof row.publishedDate === 'string') source.publishedAt = row.publishedDate;
          result.sources.push(source);
        }
        const answer = Array.isArray(body.answers)
          ? body.answers.find((a) => typeof a === 'string')
          : undefined;
        if (result.answer === undefined && typeof answer === 'string') result.answer = answer;
      }
      return result;
    },
  };
}

/** The provider configured by `DSH_SEARXNG_URL`, or `undefined`. */
export function searchProviderFromEnv(env: NodeJS.ProcessEnv): SearchProvider | undefined {
  const url = env.DSH_SEARXNG_URL;
  return url ? createSearxngProvider(url) : undefined;
}
