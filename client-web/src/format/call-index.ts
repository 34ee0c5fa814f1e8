import type { ConversationNode, ToolCallBlock } from '@dsh/card-models';

/** Every tool block of the nodes by call id, sub-calls included, in surface order. */
export function callIndex(nodes: readonly ConversationNode[]): Map<string, ToolCallBlock> {
  const index = new Map<string, ToolCallBlock>();
  const add = (block: ToolCallBlock): void => {
    index.set(block.callId, block);
    for (const sub of block.subCalls) add(sub);
  };
  for (const node of nodes) {
    if (node.kind === 'tool-result') add(node.tool);
    else if (node.kind === 'assistant') {
      for (const block of node.blocks) if (block.kind === 'tool-call') add(block.tool);
    }
  }
  return index;
}
