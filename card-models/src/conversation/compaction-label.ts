import { CompactionReason } from '@dsh/gen/events';
import { exactCount } from '../usage/usage-label.js';
import type { ConversationNode } from './types.js';

/** A compaction node. */
export type CompactionNode = Extract<ConversationNode, { kind: 'compaction' }>;

/** What both clients write on a compaction divider. */
export interface CompactionLabel {
  /** "Context compacted" or "Context compacted on request". */
  readonly title: string;
  /** "9,000 → 1,200 tokens (budget 8,000)". */
  readonly tokens: string;
  /** "summarised events 0–41; the model keeps 42 on". */
  readonly range: string;
  /** The person's instruction as a quoted line, or '' when there was none. */
  readonly instruction: string;
}

const count = exactCount;

/** The divider text of a compaction node; the summary itself is drawn expandable below it. */
export function compactionLabel(node: CompactionNode): CompactionLabel {
  const requested = node.reason === CompactionReason.REQUESTED;
  const budget = node.contextBudget > 0 ? ` (budget ${count(node.contextBudget)})` : '';
  const last = node.keptFromSeq - 1;
  const summarised =
    last < node.replacedFromSeq
      ? 'nothing summarised'
      : last === node.replacedFromSeq
        ? `summarised event ${node.replacedFromSeq}`
        : `summarised events ${node.replacedFromSeq}–${last}`;
  const kept =
    node.keptFromSeq < node.seq ? `the model keeps ${node.keptFromSeq} on` : 'nothing kept';
  return {
    title: requested ? 'Context compacted on request' : 'Context compacted',
    tokens: `${count(node.tokensBefore)} → ${count(node.tokensAfter)} tokens${budget}`,
    range: `${summarised}; ${kept}`,
    instruction: node.instruction === '' ? '' : `“${node.instruction}”`,
  };
}
