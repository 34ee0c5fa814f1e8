import type { Timestamp } from '@bufbuild/protobuf/wkt';
import type { CallEntry, CallTree } from './call-tree.js';
import { reuseNode } from './reuse.js';
import type { AssistantBlock, ConversationNode } from './types.js';

type AssistantNode = Extract<ConversationNode, { kind: 'assistant' }>;
type ToolNode = Extract<ConversationNode, { kind: 'tool-result' }>;

/** What a node is built from; its tool blocks are re-read from the call tree when they change. */
export type NodeSource =
  | { readonly kind: 'static'; node: ConversationNode; pooled: boolean }
  | {
      readonly kind: 'assistant';
      node: AssistantNode | undefined;
      readonly base: Omit<AssistantNode, 'blocks'>;
      blocks: AssistantBlock[];
      readonly tools: readonly (CallEntry | undefined)[];
    }
  | {
      readonly kind: 'tool';
      node: ToolNode | undefined;
      readonly seq: number;
      readonly time: Timestamp | undefined;
      readonly entry: CallEntry;
    };

/** Where a rebuild finds the previous node of a seq, to keep its identity. */
export type NodePool = (seq: number) => ConversationNode | undefined;

/**
 * The current node of `source`: the previous object while none of its tool blocks
 * changed; otherwise a new node that keeps the unchanged blocks.
 */
export function materializeNode(
  source: NodeSource,
  tree: CallTree,
  pool: NodePool | undefined,
): ConversationNode {
  switch (source.kind) {
    case 'static':
      if (!source.pooled) {
        source.node = reuseNode(source.node, pool?.(source.node.seq));
        source.pooled = true;
      }
      return source.node;
    case 'tool': {
      const tool = tree.project(source.entry);
      if (source.node?.tool !== tool) {
        const fresh: ToolNode = { kind: 'tool-result', seq: source.seq, time: source.time, tool };
        source.node = reuseNode(fresh, pool?.(source.seq)) as ToolNode;
      }
      return source.node;
    }
    case 'assistant':
      return materializeAssistant(source, tree, pool);
    default: {
      const unhandled: never = source;
      return unhandled;
    }
  }
}

function materializeAssistant(
  source: Extract<NodeSource, { kind: 'assistant' }>,
  tree: CallTree,
  pool: NodePool | undefined,
): AssistantNode {
  let changed = source.node === undefined;
  const tools = source.tools;
  for (let i = 0; i < tools.length; i++) {
    const entry = tools[i];
    if (entry === undefined) continue;
    const tool = tree.project(entry);
    const current = source.blocks[i];
    if (current?.kind === 'tool-call' && current.tool === tool) continue;
    source.blocks[i] = { kind: 'tool-call', callId: entry.callId, tool };
    changed = true;
  }
  if (!changed && source.node !== undefined) return source.node;
  const { base } = source;
  const fresh: AssistantNode = {
    kind: 'assistant',
    seq: base.seq,
    time: base.time,
    turn: base.turn,
    step: base.step,
    usage: base.usage,
    interrupted: base.interrupted,
    blocks: source.blocks.slice(),
  };
  const node = pool === undefined ? fresh : (reuseNode(fresh, pool(fresh.seq)) as AssistantNode);
  if (node !== fresh) source.blocks = node.blocks.slice();
  source.node = node;
  return node;
}
