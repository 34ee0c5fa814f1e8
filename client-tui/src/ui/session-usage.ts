import type { ConversationNode } from '@dsh/card-models';
import type { SessionWindowState } from '@dsh/client-live';

/** Token counts of a session as the status line shows them. */
export interface SessionUsage {
  /** Prompt tokens of every model step (billed input, cache reads and cache writes). */
  readonly input: number;
  readonly output: number;
  /** The prompt of the latest model step: how much context the model is carrying. */
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
