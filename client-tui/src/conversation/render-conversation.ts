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
 * A time budget for a render at a new width: nodes are drawn outward from the one of
 * `focusItem` (an item index of the previous render: the first visible one) until
 * `deadline` (`performance.now()`), and the rest keep their items at the previous width
 * until a later render draws them.
 */
export interface RenderBudget {
  readonly deadline: number;
  readonly focusItem: number;
  /** Rows from the focus down drawn whatever the deadline (the pane's height). */
  readonly rows?: number;
}

/** Earlier widths whose items a budgeted render may show until it reaches them. */
const maxStaleWidths = 4;

/** Nodes below the focus drawn first (the visible rows), before going outward both ways. */
const focusAhead = 40;

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
    options?: {
      readonly streaming?: boolean;
      readonly running?: boolean;
      readonly budget?: RenderBudget;
    },
  ): ConversationItem[];
  /** False when the last render left nodes at the previous width (its budget ran out). */
  readonly complete: boolean;
}

/** Creates a renderer with its own memo (one per session view). */
export function createConversationRenderer(
  context: Omit<NodeContext, 'width'>,
): ConversationRenderer {
  let memoWidth = -1;
  let memo = new WeakMap<ConversationNode, ConversationItem[]>();
  // Items of earlier widths (newest first), used for nodes a budgeted render has not reached
  // yet: a resize during a resize may find a node drawn only two widths ago.
  let stale: WeakMap<ConversationNode, ConversationItem[]>[] = [];
  const staleItems = (node: ConversationNode) => {
    for (const memoOf of stale) {
      const items = memoOf.get(node);
      if (items !== undefined) return items;
    }
    return undefined;
  };
  // The node of each item of the last render (to find the budget's focus node in the next
  // snapshot, where a prepended page moves it); undefined past the nodes (partial, pending).
  let itemNodes: (ConversationNode | undefined)[] = [];
  let itemIndexes: number[] = [];
  let complete = true;
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
  const draw = (node: ConversationNode, nodeContext: NodeContext): ConversationItem[] => {
    let drawn = memo.get(node);
    if (!drawn) {
      drawn = nodeItems(node, nodeContext);
      memo.set(node, drawn);
    }
    return drawn;
  };
  return {
    get complete() {
      return complete;
    },
    render(snapshot, width, options = {}) {
      if (width !== memoWidth) {
        // The oldest is the last complete render: it holds every node the others lack.
        const earlier = memoWidth >= 0 ? [memo, ...stale] : [];
        stale =
          earlier.length > maxStaleWidths
            ? [...earlier.slice(0, maxStaleWidths - 1), ...earlier.slice(-1)]
            : earlier;
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
      const nodes = snapshot.nodes;
      // A budget applies while a width change is under way (earlier widths' items to show).
      const budget = stale.length > 0 ? options.budget : undefined;
      if (budget !== undefined) {
        const item = Math.min(budget.focusItem, itemNodes.length - 1);
        const focusNode = itemNodes[item];
        const found = focusNode === undefined ? -1 : nodes.indexOf(focusNode);
        // A node replaced since (a call that finished) is looked for where it was.
        const focus = found >= 0 ? found : (itemIndexes[item] ?? nodes.length - 1);
        drawNear(nodes, focus, budget, (node) => draw(node, nodeContext));
      }
      complete = true;
      const items: ConversationItem[] = [];
      const owners: (ConversationNode | undefined)[] = [];
      const indexes: number[] = [];
      for (const [index, node] of nodes.entries()) {
        let drawn = memo.get(node);
        if (drawn === undefined && budget !== undefined) {
          drawn = staleItems(node);
          // A node no width has drawn yet, past the budget: one blank row until a later render.
          if (drawn === undefined && performance.now() > budget.deadline) {
            drawn = [undrawnItem(node)];
          }
        }
        if (drawn === undefined) drawn = draw(node, nodeContext);
        else if (!memo.has(node)) complete = false;
        items.push(...drawn);
        for (let i = 0; i < drawn.length; i++) {
          owners.push(node);
          indexes.push(index);
        }
        const turn = closing.get(node);
        const produced = turn === undefined ? undefined : files.get(turn);
        if (turn !== undefined && produced !== undefined && produced.length > 0) {
          items.push(deliverablesItem(turn, produced, width));
          owners.push(node);
          indexes.push(index);
        }
      }
      if (complete) stale = [];
      if (snapshot.partial) {
        items.push(...partialItems(snapshot.partial, nodeContext, options.streaming ?? true));
      }
      for (const view of pendingViews(snapshot.pending, options.running ?? false)) {
        items.push(pendingItem(view, width));
      }
      while (owners.length < items.length) owners.push(undefined);
      while (indexes.length < items.length) indexes.push(nodes.length - 1);
      itemNodes = owners;
      itemIndexes = indexes;
      return items;
    },
  };
}

/**
 * Draws nodes outward from `focus` until the budget's deadline: first the ones below it
 * (the rows on screen, `budget.rows` of them whatever the deadline), then alternately above
 * and below.
 */
function drawNear(
  nodes: readonly ConversationNode[],
  focus: number,
  budget: RenderBudget,
  draw: (node: ConversationNode) => readonly ConversationItem[],
): void {
  const at = Math.min(Math.max(0, focus), nodes.length - 1);
  const order: number[] = [];
  for (let i = at; i < Math.min(nodes.length, at + focusAhead); i++) order.push(i);
  const ahead = order.length;
  for (let up = at - 1, down = at + focusAhead; up >= 0 || down < nodes.length; up--, down++) {
    if (up >= 0) order.push(up);
    if (down < nodes.length) order.push(down);
  }
  let rows = 0;
  for (const [position, index] of order.entries()) {
    const node = nodes[index];
    if (node !== undefined && position < ahead) {
      for (const item of draw(node)) rows += item.lines.length;
    } else if (node !== undefined) draw(node);
    const onScreen = position + 1 < ahead && rows < (budget.rows ?? 0);
    if (!onScreen && performance.now() > budget.deadline) return;
  }
}

/** The stand-in of a node not drawn yet: one blank row, never on screen (drawn first there). */
function undrawnItem(node: ConversationNode): ConversationItem {
  return { key: `undrawn:${node.seq}`, lines: [[]], details: () => [] };
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
