import { create, type JsonValue } from '@bufbuild/protobuf';
import type { SessionEvent } from '@dsh/gen/events';
import { BaselineSchema, type Baseline } from '@dsh/gen/service';
import { latestCompaction } from './latest-compaction.js';
import { latestTurn } from './latest-turn.js';
import type { PriceTable } from './price-table.js';
import type { Projection } from './projection.js';
import { sessionCost } from './session-cost.js';
import { queuedInputs } from './queued-inputs.js';
import { todoList } from './todo-list.js';
import { tokenUsage } from './token-usage.js';

/** The states of every registered projection, in registry order. */
export type ProjectionStates = readonly unknown[];

/** Runs a fixed set of projections side by side and turns their states into a `Baseline`. */
export interface ProjectionRegistry {
  /** Journal type -> the payload fields any projection reads; other types need no decoding. */
  readonly reads: ReadonlyMap<string, readonly string[]>;
  /**
   * Names the projections, their `key`s and `projectionsVersion`: checkpoints persisted
   * under another key were folded by other code or prices and are not reused.
   */
  readonly key: string;
  initial(): ProjectionStates;
  fold(states: ProjectionStates, event: SessionEvent): ProjectionStates;
  snapshot(states: ProjectionStates): JsonValue;
  restore(snapshot: JsonValue): ProjectionStates;
  baseline(states: ProjectionStates, beforeSeq: number): Baseline;
}

/**
 * The projections every journal keeps: token-usage totals, the latest todo list, the
 * inputs waiting in the queue, the latest compaction and the latest turn's usage; with a
 * price table, the session's cost too (and the latest turn's).
 */
export function standardProjections(prices?: PriceTable): readonly Projection<unknown>[] {
  return [
    tokenUsage as Projection<unknown>,
    todoList as Projection<unknown>,
    queuedInputs as Projection<unknown>,
    latestCompaction as Projection<unknown>,
    latestTurn(prices) as Projection<unknown>,
    ...(prices === undefined ? [] : [sessionCost(prices) as Projection<unknown>]),
  ];
}

/** The standard projections without a price table. */
export const defaultProjections: readonly Projection<unknown>[] = standardProjections();

/** Raised whenever a projection's fold or snapshot changes meaning, so no host reuses old checkpoints. */
export const projectionsVersion = 1;

/** Builds the registry of `projections` (the default ones unless given). */
export function createProjectionRegistry(
  projections: readonly Projection<unknown>[] = defaultProjections,
): ProjectionRegistry {
  const reads = new Map<string, string[]>();
  for (const projection of projections) {
    for (const [type, fields] of Object.entries(projection.reads)) {
      reads.set(type, [...new Set([...(reads.get(type) ?? []), ...fields])]);
    }
  }
  return {
    reads,
    key: JSON.stringify([projectionsVersion, ...projections.map((p) => [p.name, p.key ?? ''])]),
    initial: () => projections.map((p) => p.initial()),
    fold(states, event) {
      let changed = false;
      const next = projections.map((p, i) => {
        const state = p.fold(states[i], event);
        if (state !== states[i]) changed = true;
        return state;
      });
      return changed ? next : states;
    },
    snapshot: (states) => projections.map((p, i) => p.snapshot(states[i])),
    restore: (snapshot) =>
      projections.map((p, i) => p.restore((snapshot as JsonValue[])[i] ?? null)),
    baseline(states, beforeSeq) {
      const fields = projections.map((p, i) => p.toBaseline(states[i]));
      return create(BaselineSchema, Object.assign({ beforeSeq }, ...fields));
    },
  };
}
