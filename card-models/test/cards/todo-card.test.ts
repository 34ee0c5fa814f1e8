import { describe, expect, it } from 'vitest';
import { todoCard, type TodoCard } from '../../src/cards/index.js';
import { failed } from './card-blocks.js';
import { asSubCall, toolBlock } from './tool-block.js';

const todos = [
  { content: 'Read the spec', status: 'completed' },
  { content: 'Write the code', status: 'in_progress' },
  { content: 'Test it', status: 'pending' },
  { content: 'Ship it', status: 'pending', priority: 'high' },
];

describe('todoCard()', () => {
  const cases: [string, ReturnType<typeof toolBlock>, Partial<TodoCard> | 'Generic'][] = [
    [
      'counts from the arguments while running',
      toolBlock('todo_write', { todos }),
      { done: 1, active: 1, pending: 2 },
    ],
    [
      'the same once settled, whatever the result says',
      toolBlock('todo_write', { todos }, { result: { content: 'nothing useful' } }),
      { done: 1, active: 1, pending: 2 },
    ],
    [
      'an empty list is a valid card',
      toolBlock('todo_write', { todos: [] }),
      { items: [], done: 0 },
    ],
    ['error results keep the list', failed('todo_write', { todos }, 'x'), { done: 1 }],
    [
      'sub-calls follow the same rule',
      asSubCall(toolBlock('todo_write', { todos })),
      { active: 1 },
    ],
    [
      'unknown item status',
      toolBlock('todo_write', { todos: [{ content: 'a', status: 'done' }] }),
      'Generic',
    ],
    [
      'item without content',
      toolBlock('todo_write', { todos: [{ status: 'pending' }] }),
      'Generic',
    ],
    ['item not an object', toolBlock('todo_write', { todos: ['a'] }), 'Generic'],
    ['todos missing', toolBlock('todo_write', {}), 'Generic'],
    ['todos not a list', toolBlock('todo_write', { todos: 'a' }), 'Generic'],
    ['arguments not JSON', toolBlock('todo_write', '{todos'), 'Generic'],
    ['orphan', toolBlock('todo_write', { todos }, { head: false, result: {} }), 'Generic'],
  ];
  it.each(cases)('%s', (_, block, expected) => {
    const card = todoCard(block);
    if (expected === 'Generic') expect(card).toBeUndefined();
    else expect(card).toMatchObject({ kind: 'todo', ...expected });
  });

  it('keeps the items in order without unknown fields', () => {
    expect(todoCard(toolBlock('todo_write', { todos }))?.items[3]).toEqual({
      content: 'Ship it',
      status: 'pending',
    });
  });
});
