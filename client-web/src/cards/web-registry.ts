import { createRendererRegistry } from '@dsh/card-models';
import type { Component } from 'vue';
import type { WebRendererRegistry } from './card-renderer.js';
import CodeCard from './CodeCard.vue';
import DiffCard from './DiffCard.vue';
import GenericCard from './GenericCard.vue';
import QuestionCard from './QuestionCard.vue';
import ReadCard from './ReadCard.vue';
import SearchCard from './SearchCard.vue';
import SkillCard from './SkillCard.vue';
import TerminalCard from './TerminalCard.vue';
import TodoCard from './TodoCard.vue';
import WebCard from './WebCard.vue';

const renderers: readonly (readonly [string, Component])[] = [
  ['bash', TerminalCard],
  ['pwsh', TerminalCard],
  ['terminal_send', TerminalCard],
  ['write', DiffCard],
  ['edit', DiffCard],
  ['str_replace_editor', DiffCard],
  ['read', ReadCard],
  ['grep', SearchCard],
  ['glob', SearchCard],
  ['web_search', WebCard],
  ['web_fetch', WebCard],
  ['todo_write', TodoCard],
  ['ask_user', QuestionCard],
  ['skill', SkillCard],
  ['run_code', CodeCard],
];

/**
 * Creates the web client's one keyed registry (card-models' `createRendererRegistry`):
 * every first-party tool name to its card component, `GenericCard` for anything else.
 */
export function createWebRegistry(): WebRendererRegistry {
  const registry = createRendererRegistry<Component>(GenericCard);
  for (const [name, component] of renderers) registry.register(name, component);
  return registry;
}

let shared: WebRendererRegistry | undefined;

/** The registry `ToolCard` uses when none is provided: created once, on first use. */
export function sharedWebRegistry(): WebRendererRegistry {
  shared ??= createWebRegistry();
  return shared;
}
