import { createRendererRegistry } from '@dsh/card-models';
import type { TuiCardRenderer, TuiRendererRegistry } from './card-renderer.js';
import { renderDiff } from './render-diff.js';
import { renderGeneric } from './render-generic.js';
import { renderRead } from './render-read.js';
import { renderCode, renderQuestion, renderSkill, renderTodo } from './render-rows.js';
import { renderSearch } from './render-search.js';
import { renderTerminal } from './render-terminal.js';
import { renderWeb } from './render-web.js';

const renderers: readonly (readonly [string, TuiCardRenderer])[] = [
  ['bash', renderTerminal],
  ['pwsh', renderTerminal],
  ['terminal_send', renderTerminal],
  ['write', renderDiff],
  ['edit', renderDiff],
  ['str_replace_editor', renderDiff],
  ['read', renderRead],
  ['grep', renderSearch],
  ['glob', renderSearch],
  ['web_search', renderWeb],
  ['web_fetch', renderWeb],
  ['todo_write', renderTodo],
  ['ask_user', renderQuestion],
  ['skill', renderSkill],
  ['run_code', renderCode],
];

/**
 * Creates the terminal client's one keyed registry (card-models' `createRendererRegistry`):
 * every first-party tool name to its text renderer, the Generic renderer for anything else.
 */
export function createTuiRegistry(): TuiRendererRegistry {
  const registry = createRendererRegistry<TuiCardRenderer>(renderGeneric);
  for (const [name, renderer] of renderers) registry.register(name, renderer);
  return registry;
}
