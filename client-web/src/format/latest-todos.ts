import { todoCard, type ConversationNode, type TodoItem } from '@dsh/card-models';
import { TodoStatus } from '@dsh/gen/service';
import type { Baseline } from '@dsh/gen/service';

const statuses: Record<TodoStatus, TodoItem['status'] | undefined> = {
  [TodoStatus.UNSPECIFIED]: undefined,
  [TodoStatus.PENDING]: 'pending',
  [TodoStatus.IN_PROGRESS]: 'in_progress',
  [TodoStatus.COMPLETED]: 'completed',
};

/**
 * The session's latest todo list: the window's newest successful `todo_write` when it is
 * newer than the baseline's list (a live or just-loaded call), else the baseline's
 * (the tail page's end baseline covers every event before the window too); undefined
 * when the session never wrote one.
 */
export function latestTodos(
  nodes: readonly ConversationNode[],
  baseline: Baseline | undefined,
): readonly TodoItem[] | undefined {
  const since = baseline?.todoList?.seq ?? -1;
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i]!;
    const tools =
      node.kind === 'assistant'
        ? node.blocks.flatMap((b) => (b.kind === 'tool-call' ? [b.tool] : []))
        : node.kind === 'tool-result'
          ? [node.tool]
          : [];
    for (const tool of tools.reverse()) {
      const seq = tool.result?.seq;
      if (tool.status !== 'ok' || seq === undefined || seq <= since) continue;
      const card = todoCard(tool);
      if (card !== undefined) return card.items;
    }
  }
  const list = baseline?.todoList;
  if (list === undefined) return undefined;
  return list.items.flatMap((item) => {
    const status = statuses[item.status];
    return status === undefined ? [] : [{ content: item.content, status }];
  });
}
