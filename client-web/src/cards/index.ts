/** Tool cards of the web client: Vue components drawing card-models' props, keyed by tool name. */

export { default as ToolCard } from './ToolCard.vue';
export { createWebRegistry, sharedWebRegistry } from './web-registry.js';
export {
  cardWindowKey,
  rendererRegistryKey,
  type BodyOf,
  type CardWindow,
  type CardMode,
  type CardRendererEmits,
  type CardRendererProps,
  type WebRendererRegistry,
} from './card-renderer.js';
export { cardsExpandedKey } from './cards-expanded.js';
export { webCardCache } from './web-card-cache.js';
export { paletteColor, terminalSegments, type TerminalSegment } from './terminal-segments.js';
