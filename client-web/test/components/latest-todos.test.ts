import { create } from '@bufbuild/protobuf';
import { createConversation } from '@dsh/card-models';
import {
  assistantMessage,
  events,
  toolCall,
  toolCallBlock,
  toolResult,
  turnStart,
} from '@dsh/fixtures';
import { BaselineSchema, TodoStatus } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { latestTodos } from '../../src/format/latest-todos.js';

const write = (id: string, content: string) => {
  const args = { todos: [{ content, status: 'in_progress' }] };
  return [
    assistantMessage({ turn: 1 }, [toolCallBlock(id, 'todo_write', args)]),
    toolCall(id, 'todo_write', args),
    toolResult(id, 'ok'),
  ];
};

function nodes(payloads: Parameters<typeof events>[0]) {
  const result = createConversation().tryApply({ kind: 'replace', events: events(payloads) });
  if (!result.ok) throw new Error(result.error.message);
  return result.snapshot.nodes;
}

const baseline = (seq: number) =>
  create(BaselineSchema, {
    beforeSeq: 100,
    todoList: { items: [{ content: 'From the baseline', status: TodoStatus.PENDING }], seq },
  });

describe('latestTodos()', () => {
  it.each([
    {
      why: 'the window’s newest list',
      window: [turnStart(1), ...write('a', 'old'), ...write('b', 'new')],
      base: undefined,
      want: 'new',
    },
    {
      why: 'the baseline’s when it is newer than the window’s',
      window: [turnStart(1), ...write('a', 'old')],
      base: baseline(50),
      want: 'From the baseline',
    },
    {
      why: 'the window’s when it is newer than the baseline’s',
      window: [turnStart(1), ...write('a', 'new')],
      base: baseline(0),
      want: 'new',
    },
    {
      why: 'the baseline’s when the window wrote none',
      window: [turnStart(1)],
      base: baseline(0),
      want: 'From the baseline',
    },
  ])('$why', ({ window, base, want }) => {
    expect(latestTodos(nodes(window), base)?.[0]?.content).toBe(want);
  });

  it('is undefined for a session that never wrote one', () => {
    expect(latestTodos(nodes([turnStart(1)]), undefined)).toBeUndefined();
  });
});
