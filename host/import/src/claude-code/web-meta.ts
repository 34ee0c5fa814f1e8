import type { WebFetchMeta, WebSearchMeta } from '@dsh/card-models/contract';
import { isRecord, numberOf, stringOf } from '../json-fields.js';

/** `web_fetch` meta from Claude Code's `WebFetch` result (`url`, `code`). */
export function webFetchMeta(
  toolUseResult: unknown,
  requestedUrl: string | undefined,
): WebFetchMeta | undefined {
  if (!isRecord(toolUseResult)) return undefined;
  const statusCode = numberOf(toolUseResult, 'code');
  const url = stringOf(toolUseResult, 'url') ?? requestedUrl;
  if (statusCode === undefined || url === undefined || url === '') return undefined;
  return { url, statusCode, truncated: false };
}

/**
 * `web_search` meta from Claude Code's `WebSearch` result: every `{title, url}` link of
 * its `results` becomes a source (Claude Code records no snippets). Text commentary in
 * `results` is not a source and stays in the model-visible content only.
 */
export function webSearchMeta(toolUseResult: unknown): WebSearchMeta | undefined {
  if (!isRecord(toolUseResult) || !Array.isArray(toolUseResult.results)) return undefined;
  const sources: WebSearchMeta['sources'] = [];
  for (const result of toolUseResult.results) {
    if (!isRecord(result) || !Array.isArray(result.content)) continue;
    for (const link of result.content) {
      const url = isRecord(link) ? stringOf(link, 'url') : undefined;
      if (url === undefined || url === '') continue;
      sources.push({
        url,
        title: stringOf(link as Record<string, unknown>, 'title') ?? '',
        snippet: '',
      });
    }
  }
  return { sources, truncated: false };
}
