import { create, type JsonValue } from '@bufbuild/protobuf';
import { TodoListSchema, TodoStatus } from '@dsh/gen/service';
import type { Projection } from './projection.js';
import { parseTodoArguments, type TodoEntry } from './todo-arguments.js';

/** The latest todo list, and the `todo_write` calls still waiting for their result. */
export interface TodoListState {
  readonly list: { readonly items: readonly TodoEntry[]; readonly seq: number } | undefined;
  readonly pending: Readonly<Record<string, readonly TodoEntry[]>>;
}

const statusValue: Record<TodoEntry['status'], TodoStatus> = {
  pending: TodoStatus.PENDING,
  in_progress: TodoStatus.IN_PROGRESS,
  completed: TodoStatus.COMPLETED,
};

/**
 * The list of the latest `todo_write` call whose `tool/result` succeeded: a call with
 * valid arguments waits in `pending` until its result settles it; a failed result or
 * malformed arguments leave the previous list in place.
 */
export const todoList: Projection<TodoListState> = {
  name: 'todoList',
  reads: { 'tool/call': ['name', 'callId', 'arguments'], 'tool/result': ['callId', 'isError'] },
  initial: () => ({ list: undefined, pending: {} }),
  fold(state, event) {
    const { payload } = event;
    if (payload.case === 'toolCall') {
      if (payload.value.name !== 'todo_write') return state;
      const { [payload.value.callId]: _replaced, ...rest } = state.pending;
      const pending: Record<string, readonly TodoEntry[]> = rest;
      const items = parseTodoArguments(payload.value.arguments);
      if (items !== undefined) pending[payload.value.callId] = items;
      return { list: state.list, pending };
    }
    if (payload.case === 'toolResult') {
      const items = state.pending[payload.value.callId];
      if (items === undefined) return state;
      const { [payload.value.callId]: _settled, ...pending } = state.pending;
      if (payload.value.isError) return { list: state.list, pending };
      return { list: { items, seq: event.seq }, pending };
    }
    return state;
  },
  snapshot: (state) => state as unknown as JsonValue,
  restore: (snapshot) => snapshot as unknown as TodoListState,
  toBaseline(state) {
    if (state.list === undefined) return {};
    return {
      todoList: create(TodoListSchema, {
        seq: state.list.seq,
        items: state.list.items.map((item) => ({
          content: item.content,
          status: statusValue[item.status],
        })),
      }),
    };
  },
};
