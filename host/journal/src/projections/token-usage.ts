import { create, type JsonValue } from '@bufbuild/protobuf';
import type { Usage } from '@dsh/gen/content';
import { TokenTotalsSchema, type TokenTotals } from '@dsh/gen/service';
import type { Projection } from './projection.js';

/** Token-usage totals; bigint because a long session can pass 2^32 tokens. */
export interface TokenUsageState {
  readonly inputTokens: bigint;
  readonly outputTokens: bigint;
  readonly cacheReadTokens: bigint;
  readonly cacheWriteTokens: bigint;
  readonly reasoningTokens: bigint;
  readonly messages: number;
}

const counters = [
  'inputTokens',
  'outputTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
  'reasoningTokens',
] as const;

/** Totals of nothing. */
export const noTokens: TokenUsageState = {
  inputTokens: 0n,
  outputTokens: 0n,
  cacheReadTokens: 0n,
  cacheWriteTokens: 0n,
  reasoningTokens: 0n,
  messages: 0,
};

/** `state` plus one step's usage; `message` counts it as an assistant message. */
export function addUsage(state: TokenUsageState, usage: Usage, message: boolean): TokenUsageState {
  return {
    inputTokens: state.inputTokens + BigInt(usage.inputTokens),
    outputTokens: state.outputTokens + BigInt(usage.outputTokens),
    cacheReadTokens: state.cacheReadTokens + BigInt(usage.cacheReadTokens),
    cacheWriteTokens: state.cacheWriteTokens + BigInt(usage.cacheWriteTokens),
    reasoningTokens: state.reasoningTokens + BigInt(usage.reasoningTokens),
    messages: state.messages + (message ? 1 : 0),
  };
}

/** The JSON snapshot of totals (counters as decimal strings). */
export function tokensSnapshot(state: TokenUsageState): JsonValue {
  const json: Record<string, JsonValue> = { messages: state.messages };
  for (const key of counters) json[key] = state[key].toString();
  return json;
}

/** Totals from `tokensSnapshot` output. */
export function tokensRestore(snapshot: JsonValue): TokenUsageState {
  const json = (snapshot ?? {}) as Record<string, string | number>;
  return {
    inputTokens: BigInt(json.inputTokens ?? 0),
    outputTokens: BigInt(json.outputTokens ?? 0),
    cacheReadTokens: BigInt(json.cacheReadTokens ?? 0),
    cacheWriteTokens: BigInt(json.cacheWriteTokens ?? 0),
    reasoningTokens: BigInt(json.reasoningTokens ?? 0),
    messages: Number(json.messages ?? 0),
  };
}

/** The wire form of totals. */
export function tokenTotals(state: TokenUsageState): TokenTotals {
  return create(TokenTotalsSchema, { ...state });
}

/**
 * Sums the usage of every `assistant/message` and `context/compaction` that reports one
 * (a compaction's summarising calls are billed like any step); `messages` counts the
 * assistant messages only.
 */
export const tokenUsage: Projection<TokenUsageState> = {
  name: 'tokenUsage',
  reads: { 'assistant/message': ['usage'], 'context/compaction': ['usage'] },
  initial: () => noTokens,
  fold(state, event) {
    const { payload } = event;
    if (payload.case !== 'assistantMessage' && payload.case !== 'contextCompaction') return state;
    const usage = payload.value.usage;
    if (usage === undefined) return state;
    return addUsage(state, usage, payload.case === 'assistantMessage');
  },
  snapshot: tokensSnapshot,
  restore: tokensRestore,
  toBaseline: (state) => ({ tokenUsage: tokenTotals(state) }),
};
