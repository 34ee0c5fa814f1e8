import type { Usage } from '@dsh/gen/content';

/** What a model costs, in US dollars per million tokens of each kind. */
export interface ModelPrice {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
}

/** Prices by model name, exactly as the provider names the model on assistant messages. */
export type PriceTable = ReadonlyMap<string, ModelPrice>;

/** The dollars one step's usage costs at `price`. */
export function usageCost(usage: Usage, price: ModelPrice): number {
  return (
    (usage.inputTokens * price.input +
      usage.outputTokens * price.output +
      usage.cacheReadTokens * price.cacheRead +
      usage.cacheWriteTokens * price.cacheWrite) /
    1_000_000
  );
}

/** A price table as a string that changes with any price (a projection's `key`). */
export function priceKey(prices: PriceTable | undefined): string {
  return prices === undefined
    ? ''
    : JSON.stringify([...prices].sort(([a], [b]) => (a < b ? -1 : 1)));
}
