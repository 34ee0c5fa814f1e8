import type { SearchQuery } from './search-types.js';

/**
 * The patterns a search program looks for in journal lines, which store text
 * JSON-escaped. A plain query becomes its escaped form, and its escaped-twice form too
 * (tool arguments are JSON text inside a JSON string), to be found as fixed strings; a
 * regex goes as it is, matched against the stored text.
 */
export function searchPatterns(query: Pick<SearchQuery, 'text' | 'regex'>): string[] {
  if (query.regex) return [query.text];
  const once = JSON.stringify(query.text).slice(1, -1);
  const twice = JSON.stringify(once).slice(1, -1);
  return once === twice ? [once] : [once, twice];
}
