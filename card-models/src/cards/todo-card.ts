import type { ToolCallBlock } from '../conversation/types.js';
import { isObject, parseJsonObject } from './card-json.js';
import type { TodoCard, TodoItem } from './card-types.js';

const statuses: ReadonlySet<string> = new Set(['pending', 'in_progress', 'completed']);

function todoItem(value: unknown): TodoItem | undefined {
  if (!isObject(value)) return undefined;
  const { content, status } = value;
  if (typeof content !== 'string' || typeof status !== 'string' || !statuses.has(status)) {
    return undefined;
  }
  return { content, status: status as TodoItem['status'] };
}

/**
 * The todo row of a `todo_write` call: its items and the done (completed), active
 * (in progress) and pending counts, from the arguments alone. Any malformed item, a
 * missing list or a missing call head gives `undefined` (the Generic card).
 */
export function todoCard(block: ToolCallBlock): TodoCard | undefined {
  if (block.call === null || block.name !== 'todo_write') return undefined;
  const todos = parseJsonObject(block.argsRaw)?.todos;
  if (!Array.isArray(todos)) return undefined;
  const items: TodoItem[] = [];
  for (const value of todos) {
    const item = todoItem(value);
    if (!item) return undefined;
    items.push(item);
  }
  const count = (status: TodoItem['status']): number =>
    items.filter((item) => item.status === status).length;
  return {
    kind: 'todo',
    items,
    done: count('completed'),
    active: count('in_progress'),
    pending: count('pending'),
  };
}
