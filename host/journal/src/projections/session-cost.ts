import { create, type JsonValue } from '@bufbuild/protobuf';
import type { Usage } from '@dsh/gen/content';
import type { SessionEvent } from '@dsh/gen/events';
import { CostTotalsSchema, type CostTotals } from '@dsh/gen/service';
import { priceKey, usageCost, type PriceTable } from './price-table.js';
import type { Projection } from './projection.js';

/** Dollars spent, and how many steps with usage were priced or had no price. */
export interface CostState {
  readonly usd: number;
  readonly pricedSteps: number;
  readonly unpricedSteps: number;
}

/** Cost of nothing. */
export const noCost: CostState = { usd: 0, pricedSteps: 0, unpricedSteps: 0 };

/** The journal types and fields a cost fold reads. */
export const costReads = {
  'assistant/message': ['usage', 'model'],
  'context/compaction': ['usage', 'model'],
} as const;

/** The usage and model of a step that reports usage, else undefined. */
export function stepUsage(event: SessionEvent): { usage: Usage; model: string } | undefined {
  const { payload } = event;
  if (payload.case !== 'assistantMessage' && payload.case !== 'contextCompaction') return undefined;
  const { usage, model } = payload.value;
  return usage === undefined ? undefined : { usage, model };
}

/** `state` plus the cost of one step, priced by its model in `prices`. */
export function addCost(
  state: CostState,
  step: { usage: Usage; model: string },
  prices: PriceTable,
): CostState {
  const price = prices.get(step.model);
  if (price === undefined) return { ...state, unpricedSteps: state.unpricedSteps + 1 };
  return {
    usd: state.usd + usageCost(step.usage, price),
    pricedSteps: state.pricedSteps + 1,
    unpricedSteps: state.unpricedSteps,
  };
}

/** The wire form of a cost. */
export function costTotals(state: CostState): CostTotals {
  return create(CostTotalsSchema, { ...state });
}

/**
 * The session's cost: every assistant message and compaction with usage, priced with
 * `prices` by the model it names. The table is the host's configuration, so a baseline
 * prices old sessions with today's table.
 */
export function sessionCost(prices: PriceTable): Projection<CostState> {
  return {
    name: 'sessionCost',
    key: priceKey(prices),
    reads: costReads,
    initial: () => noCost,
    fold(state, event) {
      const step = stepUsage(event);
      return step === undefined ? state : addCost(state, step, prices);
    },
    snapshot: (state) => ({ ...state }) as unknown as JsonValue,
    restore: (snapshot) => ({ ...noCost, ...(snapshot as unknown as CostState) }),
    toBaseline: (state) => ({ cost: costTotals(state) }),
  };
}
