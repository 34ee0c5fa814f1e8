import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { Usage } from '@dsh/gen/content';
import type { Baseline, TokenTotals } from '@dsh/gen/service';
import type { ConversationNode } from '../conversation/types.js';

/** Token counts summed over model steps (plain numbers: display precision is enough). */
export interface TokenCounts {
  readonly input: number;
  readonly output: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  readonly reasoning: number;
  /** Steps that reported usage. */
  readonly steps: number;
}

/** One turn of the window: its tokens, its cost when known exactly, and its times. */
export interface TurnUsageFacts {
  readonly turn: number;
  readonly tokens: TokenCounts;
  /** USD of the turn; undefined unless the host priced every step of it. */
  readonly costUsd: number | undefined;
  /** The person's message that started it (else its first step); 0 when unknown. */
  readonly startMs: number;
  /** Its `turn/end`; 0 while it runs or when the end is not in the window. */
  readonly endMs: number;
}

/** The session's cost as the host priced it, and what it could not price yet. */
export interface CostFacts {
  readonly usd: number;
  /** Steps whose model has no price in the host's table (left out of `usd`). */
  readonly unpricedSteps: number;
  /**
   * Steps with usage after the baseline: the host prices them in the next tail page's
   * baseline, so `usd` is a lower bound while this is above 0.
   */
  readonly newerSteps: number;
}

/** How full the model's context is: the latest step's prompt plus its output. */
export interface ContextFacts {
  readonly used: number;
  /** The model's context budget, known from a compaction in the window; 0 when unknown. */
  readonly budget: number;
}

/** Session-wide usage facts from a tail page's baseline and the loaded window. */
export interface SessionUsage {
  /** Every step of the session: the baseline plus the window's steps after it. */
  readonly total: TokenCounts;
  /** Undefined when the host has no price table. */
  readonly cost: CostFacts | undefined;
  /** Undefined before any step reported usage. */
  readonly context: ContextFacts | undefined;
  /** The window's turns that reported usage or ended, by turn number. */
  readonly turns: ReadonlyMap<number, TurnUsageFacts>;
}

/** No tokens. */
export const noTokens: TokenCounts = {
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  steps: 0,
};

function fromTotals(totals: TokenTotals | undefined): TokenCounts {
  if (totals === undefined) return noTokens;
  return {
    input: Number(totals.inputTokens),
    output: Number(totals.outputTokens),
    cacheRead: Number(totals.cacheReadTokens),
    cacheWrite: Number(totals.cacheWriteTokens),
    reasoning: Number(totals.reasoningTokens),
    steps: totals.messages,
  };
}

function plus(a: TokenCounts, b: Usage): TokenCounts {
  return {
    input: a.input + b.inputTokens,
    output: a.output + b.outputTokens,
    cacheRead: a.cacheRead + b.cacheReadTokens,
    cacheWrite: a.cacheWrite + b.cacheWriteTokens,
    reasoning: a.reasoning + b.reasoningTokens,
    steps: a.steps + 1,
  };
}

function ms(time: Timestamp | undefined): number {
  return time === undefined ? 0 : Number(time.seconds) * 1000 + Math.floor(time.nanos / 1e6);
}

interface TurnDraft {
  tokens: TokenCounts;
  /** Tokens of the steps before the baseline (already in the baseline's latest turn). */
  before: TokenCounts;
  after: number;
  startMs: number;
  endMs: number;
}

/**
 * The usage facts a client shows for a session: totals (the baseline's, plus every
 * step of the window after its `beforeSeq`), the host's cost, how full the context is,
 * and per turn its tokens and times. A turn that the baseline's latest turn covers gets
 * the baseline's count for its steps before `beforeSeq`, so it is exact even when it
 * started before the window. Compaction usage reaches the totals through the baseline.
 */
export function sessionUsage(
  nodes: readonly ConversationNode[],
  baseline: Baseline | undefined,
): SessionUsage {
  const from = baseline?.beforeSeq ?? 0;
  let total = fromTotals(baseline?.tokenUsage);
  let newerSteps = 0;
  let context: ContextFacts | undefined;
  let budget = 0;
  let lastUserMs = 0;
  const drafts = new Map<number, TurnDraft>();
  const draft = (turn: number, atMs: number): TurnDraft => {
    let found = drafts.get(turn);
    if (found === undefined) {
      found = {
        tokens: noTokens,
        before: noTokens,
        after: 0,
        startMs: lastUserMs || atMs,
        endMs: 0,
      };
      drafts.set(turn, found);
    }
    return found;
  };
  for (const node of nodes) {
    switch (node.kind) {
      case 'user':
        lastUserMs = ms(node.time);
        break;
      case 'assistant': {
        const turn = draft(node.turn, ms(node.time));
        if (node.usage === undefined) break;
        const { usage } = node;
        turn.tokens = plus(turn.tokens, usage);
        if (node.seq < from) turn.before = plus(turn.before, usage);
        else {
          turn.after += 1;
          total = plus(total, usage);
          newerSteps += 1;
        }
        const prompt = usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;
        context = { used: prompt + usage.outputTokens, budget };
        break;
      }
      case 'compaction':
        budget = node.contextBudget;
        context = { used: node.tokensAfter, budget };
        break;
      case 'turn-end':
        draft(node.turn, ms(node.time)).endMs = ms(node.time);
        lastUserMs = 0;
        break;
      default:
        break;
    }
  }
  if (context !== undefined) context = { ...context, budget: budget || context.budget };
  return {
    total,
    cost: costFacts(baseline, newerSteps),
    context,
    turns: turnFacts(drafts, baseline),
  };
}

function costFacts(baseline: Baseline | undefined, newerSteps: number): CostFacts | undefined {
  const cost = baseline?.cost;
  if (cost === undefined) return undefined;
  return { usd: cost.usd, unpricedSteps: cost.unpricedSteps, newerSteps };
}

function turnFacts(
  drafts: ReadonlyMap<number, TurnDraft>,
  baseline: Baseline | undefined,
): Map<number, TurnUsageFacts> {
  const latest = baseline?.latestTurn;
  const turns = new Map<number, TurnUsageFacts>();
  for (const [turn, draft] of drafts) {
    let { tokens } = draft;
    let costUsd: number | undefined;
    if (latest !== undefined && latest.turn === turn) {
      const counted = fromTotals(latest.tokens);
      tokens = sum(counted, minus(tokens, draft.before));
      const cost = latest.cost;
      if (draft.after === 0 && cost !== undefined && cost.unpricedSteps === 0) costUsd = cost.usd;
    }
    if (tokens.steps === 0 && draft.endMs === 0) continue;
    turns.set(turn, { turn, tokens, costUsd, startMs: draft.startMs, endMs: draft.endMs });
  }
  return turns;
}

function minus(a: TokenCounts, b: TokenCounts): TokenCounts {
  return combine(a, b, -1);
}

function sum(a: TokenCounts, b: TokenCounts): TokenCounts {
  return combine(a, b, 1);
}

function combine(a: TokenCounts, b: TokenCounts, sign: 1 | -1): TokenCounts {
  return {
    input: a.input + sign * b.input,
    output: a.output + sign * b.output,
    cacheRead: a.cacheRead + sign * b.cacheRead,
    cacheWrite: a.cacheWrite + sign * b.cacheWrite,
    reasoning: a.reasoning + sign * b.reasoning,
    steps: a.steps + sign * b.steps,
  };
}
