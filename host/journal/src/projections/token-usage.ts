import { create, type JsonValue } from '@bufbuild/protobuf';
import { TokenTotalsSchema } from '@dsh/gen/service';
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

/** Sums the usage of every `assistant/message` that reports one. */
export const tokenUsage: Projection<TokenUsageState> = {
  name: 'tokenUsage',
  reads: { 'assistant/message': ['usage'] },
  initial: () => ({
    inputTokens: 0n,
    outputTokens: 0n,
    cacheReadTokens: 0n,
    cacheWriteTokens: 0n,
    reasoningTokens: 0n,
    messages: 0,
  }),
  fold(state, event) {
    if (event.payload.case !== 'assistantMessage') return state;
    const usage = event.payload.value.usage;
    if (usage === undefined) return state;
    return {
      inputTokens: state.inputTokens + BigInt(usage.inputTokens),
      outputTokens: state.outputTokens + BigInt(usage.outputTokens),
      cacheReadTokens: state.cacheReadTokens + BigInt(usage.cacheReadTokens),
      cacheWriteTokens: state.cacheWriteTokens + BigInt(usage.cacheWriteTokens),
      reasoningTokens: state.reasoningTokens + BigInt(usage.reasoningTokens),
      messages: state.messages + 1,
    };
  },
  snapshot(state) {
    const json: Record<string, JsonValue> = { messages: state.messages };
    for (const key of counters) json[key] = state[key].toString();
    return json;
  },
  restore(snapshot) {
    const json = snapshot as Record<string, string | number>;
    return {
      inputTokens: BigInt(json.inputTokens ?? 0),
      outputTokens: BigInt(json.outputTokens ?? 0),
      cacheReadTokens: BigInt(json.cacheReadTokens ?? 0),
      cacheWriteTokens: BigInt(json.cacheWriteTokens ?? 0),
      reasoningTokens: BigInt(json.reasoningTokens ?? 0),
      messages: Number(json.messages ?? 0),
    };
  },
  toBaseline: (state) => ({ tokenUsage: create(TokenTotalsSchema, { ...state }) }),
};
