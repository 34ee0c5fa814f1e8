import {
  deliverablesByTurn,
  pendingViews,
  type ConversationNode,
  type ConversationSnapshot,
  type Deliverable,
  type PendingView,
} from '@dsh/card-models';
import { oneLine, textLines } from '../cards/text-lines.js';
import { theme } from '../cards/theme.js';
import { seg, type StyledLine } from '../text/styled-line.js';
import { wrapLine } from '../text/text-width.js';
import { createMarkdownStream, type MarkdownStream } from '../markdown/markdown-lines.js';
import type { ConversationItem } from './conversation-item.js';
import { nodeItems, partialItems, type NodeContext } from './render-node.js';

/**
 * Renders conversation snapshots into items, memoised on node identity and width: an
 * append re-renders only the nodes card-models replaced, so a long window costs O(new).
 */
export interface ConversationRenderer {
  /**
   * `streaming` (default true) draws the partial message's cursor: the client passes false
   * while the stream is down or the session no longer runs, so no cursor outlives a turn.
   * `running` (default false) is the session summary's running state: pending items wait
   * for an answer only then (card-models' `pendingViews`), else they say why none is asked.
   */
  render(
    snapshot: ConversationSnapshot,
    width: number,
    options?: { readonly streaming?: boolean; readonly running?: boolean },
  ): ConversationItem[];
}

/** Creates a renderer with its own memo (one per session view). */
export function createConversationRenderer(
  context: Omit<NodeContext, 'width'>,
): ConversationRenderer {
  let memoWidth = -1;
  let memo = new WeakMap<ConversationNode, ConversationItem[]>();
  // Stream renderers of the partial's text blocks; dropped when another partial streams.
  let streams = new Map<string, MarkdownStream>();
  let streamsOf: number | undefined;
  const markdownStream = (key: string): MarkdownStream => {
    let stream = streams.get(key);
    if (stream === undefined) {
      stream = createMarkdownStream();
      streams.set(key, stream);
    }
    return stream;
  };
  return {
    render(snapshot, width, options = {}) {
      if (width !== memoWidth) {
        memo = new WeakMap();
        memoWidth = width;
      }
      if (snapshot.partial?.seq !== streamsOf) {
        streams = new Map();
        streamsOf = snapshot.partial?.seq;
      }
      const nodeContext: NodeContext = { ...context, width, markdownStream };
      const closing = closingNodes(snapshot.nodes);
      const files =
        closing.size > 0
          ? deliverablesByTurn(snapshot.nodes, context.card.facts)
          : new Map<number, Deliverable[]>();
      const items: ConversationItem[] = [];
      for (const node of snapshot.nodes) {
        let drawn = memo.get(node);
        if (!drawn) {
          drawn = nodeItems(node, nodeContext);
          memo.set(node, drawn);
        }
        items.push(...drawn);
        const turn = closing.get(node);
        const produced = turn === undefined ? undefined : files.get(turn);
        if (turn !== undefined && produced !== undefined && produced.length > 0) {
          items.push(deliverablesItem(turn, produced, width));
        }
      }
      if (snapshot.partial) {
        items.push(...partialItems(snapshot.partial, nodeContext, options.streaming ?? true));
      }
      for (const view of pendingViews(snapshot.pending, options.running ?? false)) {
        items.push(pendingItem(view, width));
      }
      return items;
    },
  };
}

/** The last assistant node of each turn in the window: deliverables are drawn under it. */
function closingNodes(nodes: readonly ConversationNode[]): Map<ConversationNode, number> {
  const lastByTurn = new Map<number, ConversationNode>();
  for (const node of nodes) if (node.kind === 'assistant') lastByTurn.set(node.turn, node);
  return new Map([...lastByTurn].map(([turn, node]) => [node, turn]));
}

function deliverablesItem(
  turn: number,
  files: readonly Deliverable[],
  width: number,
): ConversationItem {
  const draw = (w: number): StyledLine[] => {
    const line: StyledLine = [
      seg('⇲ files: ', theme.ok),
      ...files.flatMap((file, i) => [
        ...(i > 0 ? [seg(', ', theme.dim)] : []),
        seg(oneLine(file.displayPath), theme.path),
      ]),
    ];
    return wrapLine(line, w, 2);
  };
  return { key: `deliverables:${turn}`, lines: draw(width), details: draw };
}

/** A pending approval or question: where to answer it, or the note why nothing asks. */
function pendingItem(view: PendingView, width: number): ConversationItem {
  const { item, note } = view;
  const waiting = (w: number): StyledLine[] =>
    note !== ''
      ? textLines(note, w, { style: theme.dim, indent: 2 })
      : [[seg('  waiting for your answer in the prompt below', theme.dim)]];
  const draw = (w: number): StyledLine[] => {
    if (item.kind === 'approval') {
      const reason = item.reason !== '' ? ` — ${item.reason}` : '';
      return [
        ...textLines(`Approve ${item.toolName}?${reason}`, w, { style: theme.pending }),
        ...waiting(w),
      ];
    }
    const lines: StyledLine[] = [];
    item.questions.forEach((question, q) => {
      const header = question.header !== '' ? `${question.header}: ` : '';
      lines.push(
        ...textLines(
          `${item.questions.length > 1 ? `${q + 1}/${item.questions.length} ` : ''}${header}${question.question}`,
          w,
          { style: theme.pending },
        ),
      );
      question.options.forEach((option, i) => {
        const description = option.description !== '' ? ` — ${oneLine(option.description)}` : '';
        lines.push(
          ...wrapLine(
            [
              seg(`  ${i + 1}`, theme.key),
              seg(` ${oneLine(option.label)}`),
              seg(description, theme.dim),
            ],
            w,
            5,
          ),
        );
      });
    });
    lines.push(...waiting(w));
    return lines;
  };
  const key =
    item.kind === 'approval' ? `approval:${item.approvalId}` : `question:${item.questionId}`;
  return { key, pending: item, lines: draw(width), details: draw };
}
