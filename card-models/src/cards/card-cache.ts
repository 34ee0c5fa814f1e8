import type { ToolCallBlock } from '../conversation/types.js';
import type { Card } from './card-types.js';
import { deriveCard } from './derive-card.js';
import type { PathFacts } from './path-facts.js';

/** A memo of derived cards; one per client (or per session view). */
export interface CardCache {
  /** The card of `block` under `facts`: the same object while the block and facts are unchanged. */
  card(block: ToolCallBlock, facts: PathFacts): Card;
  /** How many cards this cache derived (cache misses), for tests and the benchmark. */
  readonly derivations: number;
}

/**
 * Creates a card cache keyed by block identity (a WeakMap, so dropped blocks free their
 * cards) and by the facts' values (cwd and home), never by callId. Sub-calls go through
 * the same cache, so a parent that changes keeps the cards of its unchanged children.
 */
export function createCardCache(): CardCache {
  const byFacts = new Map<string, WeakMap<ToolCallBlock, Card>>();
  let derivations = 0;
  const card = (block: ToolCallBlock, facts: PathFacts): Card => {
    const key = `${facts.cwd}\u0000${facts.home}`;
    let cards = byFacts.get(key);
    if (!cards) {
      cards = new WeakMap();
      byFacts.set(key, cards);
    }
    let found = cards.get(block);
    if (!found) {
      derivations++;
      found = deriveCard(block, facts, card);
      cards.set(block, found);
    }
    return found;
  };
  return {
    card,
    get derivations() {
      return derivations;
    },
  };
}
