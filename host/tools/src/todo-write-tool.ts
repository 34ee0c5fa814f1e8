import { toolSchema, type ObjectSchema } from './tool-args.js';
import type { Tool } from './tool.js';

/** One item of the agent's todo list. */
export interface TodoItem {
  content: string;
  status: 'pending' | 'in_progress' | 'completed';
}

/** Arguments of `todo_write`: the whole list, replacing the previous one. */
export interface TodoWriteArgs {
  todos: TodoItem[];
}

const schema: ObjectSchema = {
  type: 'object',
  properties: {
    todos: {
      type: 'array',
      description: 'The complete todo list (replaces the previous one).',
      items: {
        type: 'object',
        properties: {
          content: { type: 'string', minLength: 1 },
          status: { type: 'string', enum: ['pending', 'in_progress', 'completed'] },
        },
        required: ['content', 'status'],
        additionalProperties: false,
      },
    },
  },
  required: ['todos'],
  additionalProperties: false,
};

const boxes: Record<TodoItem['status'], string> = {
  pending: '[ ]',
  in_progress: '[~]',
  completed: '[x]',
};

/** `todo_write`: records the agent's plan; the card draws it from the arguments. */
export const todoWriteTool: Tool<TodoWriteArgs> = {
  name: 'todo_write',
  description:
    'Replaces the todo list that tracks the plan for this task (statuses: pending, in_progress, completed).',
  ...toolSchema<TodoWriteArgs>(schema),
  async execute(args) {
    const count = (status: TodoItem['status']) =>
      args.todos.filter((t) => t.status === status).length;
    const summary = `Todo list updated: ${args.todos.length} item${args.todos.length === 1 ? '' : 's'} (${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending)`;
    const rows = args.todos.map((todo) => `${boxes[todo.status]} ${todo.content}`);
    return { content: [summary, ...rows].join('\n'), isError: false };
  },
};
