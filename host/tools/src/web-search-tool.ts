import { errorCodes, interruptedMessage, type WebSearchMeta } from '@dsh/card-models/contract';
import { toolSchema, type ObjectSchema } from './tool-args.js';
import { ToolFailure } from './tool-failure.js';
import type { SearchProvider } from './search-provider.js';
import type { Tool } from './tool.js';

/** Arguments of `web_search`: one query or several. */
export interface WebSearchArgs {
  query?: string;
  queries?: string[];
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    query: { type: 'string', minLength: 1, description: 'What to search for.' },
    queries: {
      type: 'array',
      minItems: 1,
      items: { type: 'string', minLength: 1 },
      description: 'Several searches at once.',
    },
  },
  additionalProperties: false,
};

/**
 * `web_search` through a `SearchProvider`; without one it fails with `not_configured`
 * and says how to configure one.
 */
export function createWebSearchTool(
  provider: SearchProvider | undefined,
): Tool<WebSearchArgs, WebSearchMeta> {
  return {
    name: 'web_search',
    description: 'Searches the web and returns sources (title, URL, snippet).',
    ...toolSchema<WebSearchArgs>(schema, (args) =>
      (args.query === undefined) === (args.queries === undefined)
        ? 'give exactly one of query or queries'
        : undefined,
    ),
    async execute(args, ctx) {
      if (!provider) {
        throw new ToolFailure(
          'not_configured',
          'no web search provider is configured: set DSH_SEARXNG_URL to a SearXNG instance with the JSON format enabled',
        );
      }
      const queries = args.queries ?? [args.query ?? ''];
      let result: WebSearchMeta;
      try {
        result = await provider.search(queries, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) throw new ToolFailure(errorCodes.interrupted, interruptedMessage);
        throw new ToolFailure(
          'search_failed',
          `${provider.name} search failed: ${(error as Error).message}`,
        );
      }
      return { content: formatResults(queries, result), isError: false, value: result };
    },
    presentationMeta: (_args, result) => result,
  };
}

function formatResults(queries: string[], result: WebSearchMeta): string {
  const lines = [`Results for ${queries.map((q) => `"${q}"`).join(', ')}:`];
  if (result.answer !== undefined) lines.push(`Answer: ${result.answer}`);
  if (result.sources.length === 0) lines.push('No results.');
  result.sources.forEach((source, i) => {
    lines.push(`${i + 1}. ${source.title}`, `   ${source.url}`);
    if (source.publishedAt) lines.push(`   published ${source.publishedAt}`);
    if (source.snippet) lines.push(`   ${source.snippet}`);
  });
  if (result.truncated) lines.push('[more results exist; refine the query to narrow them]');
  return lines.join('\n');
}
