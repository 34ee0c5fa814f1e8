import { create, type JsonValue } from '@bufbuild/protobuf';
import { TurnUsageSchema } from '@dsh/gen/service';
import { priceKey, type PriceTable } from './price-table.js';
import type { Projection } from './projection.js';
import {
  addCost,
  costReads,
  costTotals,
  noCost,
  stepUsage,
  type CostState,
} from './session-cost.js';
import {
  addUsage,
  noTokens,
  tokensRestore,
  tokensSnapshot,
  tokenTotals,
  type TokenUsageState,
} from './token-usage.js';

/** The usage and cost of the latest turn that had usage. */
export interface LatestTurnState {
  readonly turn: number;
  readonly tokens: TokenUsageState;
  readonly cost: CostState;
}

/**
 * Usage (and, with `prices`, cost) of the latest turn whose assistant messages or
 * compactions reported usage: a step of a new turn starts the totals again. A client
 * adds the steps of the events it holds after the baseline.
 */
export function latestTurn(
  prices: PriceTable | undefined,
): Projection<LatestTurnState | undefined> {
  return {
    name: 'latestTurn',
    key: priceKey(prices),
    reads: {
      'assistant/message': [...costReads['assistant/message'], 'turn'],
      'context/compaction': [...costReads['context/compaction'], 'turn'],
    },
    initial: () => undefined,
    fold(state, event) {
      const step = stepUsage(event);
      if (step === undefined) return state;
      const turn = (event.payload.value as { turn: number }).turn;
      const base = state !== undefined && state.turn === turn ? state : undefined;
      return {
        turn,
        tokens: addUsage(
          base?.tokens ?? noTokens,
          step.usage,
          event.payload.case === 'assistantMessage',
        ),
        cost: prices === undefined ? noCost : addCost(base?.cost ?? noCost, step, prices),
      };
    },
    snapshot: (state) =>
      state === undefined
        ? null
        : { turn: state.turn, tokens: tokensSnapshot(state.tokens), cost: { ...state.cost } },
    restore(snapshot) {
      if (snapshot === null || typeof snapshot !== 'object') return undefined;
      const json = snapshot as unknown as { turn: number; tokens: JsonValue; cost: CostState };
      return {
        turn: json.turn,
        tokens: tokensRestore(json.tokens),
        cost: { ...noCost, ...json.cost },
      };
    },
    toBaseline(state) {
      if (state === undefined) return {};
      return {
        latestTurn: create(TurnUsageSchema, {
          turn: state.turn,
          tokens: tokenTotals(state.tokens),
          ...(prices === undefined ? {} : { cost: costTotals(state.cost) }),
        }),
      };
    },
  };
}
