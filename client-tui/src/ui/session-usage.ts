import type { ConversationNode } from '@dsh/card-models';
import type { SessionWindowState } from '@dsh/client-live';

/** Token counts of a session as the status line shows them. */
export interface SessionUsage {
  /** Prompt tokens of every model step (billed input, cache reads and cache writes). */
  readonly input: number;
  readonly output: number;
  /**
   * The prompt of the latest model step, or the latest compaction's tokens after it when
   * that came later: how much context the model is carrying.
   */
  readonly context: number | undefined;
}

interface WindowSums {
  readonly input: number;
  readonly output: number;
  readonly context: number | undefined;
}

// Sums over the window's nodes from a seq on, per node array (a new node makes a new array).
const sums = new WeakMap<readonly ConversationNode[], { from: number; sums: WindowSums }>();

function windowSums(nodes: readonly ConversationNode[], from: number): WindowSums {
  const known = sums.get(nodes);
  if (known !== undefined && known.from === from) return known.sums;
  let input = 0;
  let output = 0;
  let context: number | undefined;
  for (const node of nodes) {
    // A compaction leaves the model carrying its summary and what it kept: its `tokens_after`.
    if (node.kind === 'compaction') context = node.tokensAfter;
    if (node.kind !== 'assistant' || node.usage === undefined) continue;
    const prompt =
      node.usage.inputTokens + node.usage.cacheReadTokens + node.usage.cacheWriteTokens;
    context = prompt;
    if (node.seq < from) continue;
    input += prompt;
    output += node.usage.outputTokens;
  }
  const result = { input, output, context };
  sums.set(nodes, { from, sums: result });
  return result;
}

/**
 * The session's token usage: the tail page's baseline (every model step before it) plus
 * the steps of the window from the baseline's seq on, so older pages loaded later are not
 * counted twice. Undefined before the window opened.
 */
export function sessionUsage(window: SessionWindowState): SessionUsage | undefined {
  if (!window.opened) return undefined;
  const baseline = window.baseline;
  const totals = baseline?.tokenUsage;
  const from = baseline?.beforeSeq ?? 0;
  const inWindow = windowSums(window.snapshot.nodes, from);
  const base =
    totals === undefined
      ? { input: 0, output: 0 }
      : {
          input:
            Number(totals.inputTokens) +
            Number(totals.cacheReadTokens) +
            Number(totals.cacheWriteTokens),
          output: Number(totals.outputTokens),
        };
  return {
    input: base.input + inWindow.input,
    output: base.output + inWindow.output,
    context: inWindow.context,
  };
}

/** What the host priced of a session: its dollars and whether some steps are left out. */
export interface SessionCost {
  readonly usd: number;
  /**
   * True when steps with usage are not in `usd`: the host had no price for their model, or
   * they came after the tail page's baseline (a client has no price table of its own).
   */
  readonly partial: boolean;
}

/** Token usage (and, when the host priced all of it, cost) of the latest turn with usage. */
export interface TurnUsageView {
  readonly turn: number;
  readonly input: number;
  readonly output: number;
  readonly usd: number | undefined;
}

type Step = Extract<ConversationNode, { kind: 'assistant' }>;

// The steps from a seq on, per node array, so a draw that changed nothing costs nothing.
const stepCache = new WeakMap<readonly ConversationNode[], { from: number; steps: Step[] }>();

/** The window's model steps with usage from `from` on (nodes are in seq order). */
function stepsFrom(nodes: readonly ConversationNode[], from: number): Step[] {
  const known = stepCache.get(nodes);
  if (known !== undefined && known.from === from) return known.steps;
  const out: Step[] = [];
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i] as ConversationNode;
    if (node.seq < from) break;
    if (node.kind === 'assistant' && node.usage !== undefined) out.push(node);
  }
  out.reverse();
  stepCache.set(nodes, { from, steps: out });
  return out;
}

const promptTokens = (usage: NonNullable<Step['usage']>): number =>
  usage.inputTokens + usage.cacheReadTokens + usage.cacheWriteTokens;

/**
 * The session's cost from the tail page's baseline (`cost`, priced by the host); undefined
 * when the host has no price table.
 */
export function sessionCost(window: SessionWindowState): SessionCost | undefined {
  const cost = window.baseline?.cost;
  if (!window.opened || cost === undefined) return undefined;
  const after = stepsFrom(window.snapshot.nodes, window.baseline?.beforeSeq ?? 0).length;
  return { usd: cost.usd, partial: cost.unpricedSteps > 0 || after > 0 };
}

/**
 * The latest turn with usage: the baseline's `latest_turn` plus the window's steps of the
 * same turn after the baseline, or the window's own latest turn. Its cost is known only
 * while every step of it is in the baseline.
 */
export function latestTurnUsage(window: SessionWindowState): TurnUsageView | undefined {
  if (!window.opened) return undefined;
  const base = window.baseline?.latestTurn;
  const steps = stepsFrom(window.snapshot.nodes, window.baseline?.beforeSeq ?? 0);
  const turn = steps.at(-1)?.turn ?? base?.turn;
  if (turn === undefined) return undefined;
  const own = steps.filter((step) => step.turn === turn);
  const fromBase = base !== undefined && base.turn === turn ? base : undefined;
  const tokens = fromBase?.tokens;
  let input =
    tokens === undefined
      ? 0
      : Number(tokens.inputTokens) +
        Number(tokens.cacheReadTokens) +
        Number(tokens.cacheWriteTokens);
  let output = tokens === undefined ? 0 : Number(tokens.outputTokens);
  for (const step of own) {
    input += promptTokens(step.usage as NonNullable<Step['usage']>);
    output += step.usage?.outputTokens ?? 0;
  }
  const priced = fromBase?.cost;
  const usd =
    own.length === 0 && priced !== undefined && priced.unpricedSteps === 0 ? priced.usd : undefined;
  return { turn, input, output, usd };
}

/** Dollars as the status line shows them: `$0.42`, `$12.30`, `$120`, `<$0.01`. */
export function dollars(usd: number): string {
  if (usd > 0 && usd < 0.01) return '<$0.01';
  return usd >= 100 ? `$${Math.round(usd)}` : `$${usd.toFixed(2)}`;
}

/** A count as the status line shows it: 950, 12.3k, 4.1M. */
export function compactCount(value: number): string {
  if (value < 1_000) return String(value);
  if (value < 1_000_000) return `${(value / 1_000).toFixed(value < 10_000 ? 1 : 0)}k`;
  return `${(value / 1_000_000).toFixed(value < 10_000_000 ? 1 : 0)}M`;
}

/** Seconds as `42s`, `3m 05s` or `2h 10m`. */
export function elapsedText(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h ${String(minutes % 60).padStart(2, '0')}m`;
}
