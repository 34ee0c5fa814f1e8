import type { PathFacts, ToolCallBlock } from '@dsh/card-models';
import { flushPromises, mount, type VueWrapper } from '@vue/test-utils';
import { ToolCard, type CardMode } from '../../src/cards/index.js';
import { highlightLanguages, loadLanguage } from '../../src/format/highlighter.js';

/** Every grammar loaded, so snapshots show highlighted code (the app loads them lazily). */
export const languagesLoaded: Promise<unknown> = Promise.all(
  highlightLanguages.map((name) => loadLanguage(name)),
);

/**
 * Mounts one `ToolCard` the way the conversation and the details panel do, and waits for
 * the re-render an isolated renderer error causes.
 */
export async function mountCard(
  block: ToolCallBlock,
  facts: PathFacts,
  mode: CardMode,
  selectedCallId?: string,
): Promise<VueWrapper> {
  await languagesLoaded;
  const wrapper = mount(ToolCard, { props: { block, facts, mode, selectedCallId } });
  await flushPromises();
  return wrapper;
}

/** The `data-field` elements of the card itself, not of its nested sub-call cards. */
export function ownFields(card: Element): Map<string, string> {
  const fields = new Map<string, string>();
  for (const el of card.querySelectorAll('[data-field]')) {
    if (el.closest('.dsh-card') !== card) continue;
    const name = el.getAttribute('data-field') ?? '';
    fields.set(name, (fields.get(name) ?? '') + (el.textContent ?? '').replace(/\s+/g, ' ').trim());
  }
  return fields;
}
