/** Projections: pure folds over raw events whose state a tail page carries as its baseline. */
export type { BaselineFields, Projection } from './projection.js';
export {
  createProjectionRegistry,
  defaultProjections,
  standardProjections,
  type ProjectionRegistry,
  type ProjectionStates,
} from './projection-registry.js';
export { latestCompaction, type CompactionMarkState } from './latest-compaction.js';
export { latestTurn, type LatestTurnState } from './latest-turn.js';
export { usageCost, type ModelPrice, type PriceTable } from './price-table.js';
export { sessionCost, type CostState } from './session-cost.js';
export { parseTodoArguments, type TodoEntry } from './todo-arguments.js';
export { queuedInputs, type WaitingInput } from './queued-inputs.js';
export { todoList, type TodoListState } from './todo-list.js';
export { tokenUsage, type TokenUsageState } from './token-usage.js';
