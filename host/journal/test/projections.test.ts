import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, UsageSchema } from '@dsh/gen/content';
import { UnqueueReason } from '@dsh/gen/events';
import { TodoStatus } from '@dsh/gen/service';
import {
  assistantMessage,
  events,
  toolCall,
  toolResult,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import {
  createProjectionRegistry,
  parseTodoArguments,
  todoList,
  tokenUsage,
} from '../src/projections/index.js';
import { eventPayloads } from '../src/event-payloads.js';

const textBlock = (text: string) =>
  create(ContentBlockSchema, { block: { case: 'text', value: { text } } });

function foldAll<S>(projection: typeof tokenUsage | typeof todoList, payloads: Payload[]): S {
  let state = projection.initial() as unknown;
  for (const event of events(payloads)) {
    state = (projection.fold as (s: unknown, e: typeof event) => unknown)(state, event);
  }
  // Every state survives a snapshot round trip through JSON text.
  const snapshot = JSON.parse(JSON.stringify(projection.snapshot(state as never)));
  expect(projection.restore(snapshot)).toEqual(state);
  return state as S;
}

describe('tokenUsage', () => {
  const big = create(UsageSchema, {
    inputTokens: 4_000_000_000,
    outputTokens: 1,
    cacheReadTokens: 7,
    cacheWriteTokens: 8,
    reasoningTokens: 9,
  });
  const cases: [string, Payload[], Record<string, bigint | number>][] = [
    ['nothing', [], { inputTokens: 0n, messages: 0 }],
    ['ignores messages without usage', [assistantMessage({ turn: 1 }, ['x'])], { messages: 0 }],
    [
      'sums usage',
      [
        userMessage('q'),
        assistantMessage({ turn: 1 }, ['a'], usage(3, 4)),
        assistantMessage({ turn: 1 }, ['b'], usage(5, 6)),
      ],
      { inputTokens: 8n, outputTokens: 10n, messages: 2 },
    ],
    [
      'passes 2^32 without loss',
      [assistantMessage({ turn: 1 }, ['a'], big), assistantMessage({ turn: 1 }, ['b'], big)],
      {
        inputTokens: 8_000_000_000n,
        outputTokens: 2n,
        cacheReadTokens: 14n,
        cacheWriteTokens: 16n,
        reasoningTokens: 18n,
        messages: 2,
      },
    ],
  ];
  it.each(cases)('%s', (_name, payloads, expected) => {
    expect(foldAll(tokenUsage, payloads)).toMatchObject(expected);
  });
});

describe('todoList', () => {
  const write = (id: string, todos: unknown) => toolCall(id, 'todo_write', { todos });
  const one = [{ content: 'a', status: 'pending' }];
  const two = [
    { content: 'a', status: 'completed' },
    { content: 'b', status: 'in_progress', activeForm: 'doing b' },
  ];
  const cases: [string, Payload[], { content: string; status: string }[] | undefined, number?][] = [
    ['nothing', [], undefined],
    ['a call without its result', [write('c1', one)], undefined],
    ['a successful call', [write('c1', one), toolResult('c1', 'ok')], one, 1],
    [
      'the latest success wins',
      [write('c1', one), toolResult('c1', 'ok'), write('c2', two), toolResult('c2', 'ok')],
      [
        { content: 'a', status: 'completed' },
        { content: 'b', status: 'in_progress' },
      ],
      3,
    ],
    [
      'a failed result keeps the previous list',
      [
        write('c1', one),
        toolResult('c1', 'ok'),
        write('c2', two),
        toolResult('c2', 'x', { error: { code: 'e', message: 'm' } }),
      ],
      one,
      1,
    ],
    [
      'malformed JSON is ignored',
      [toolCall('c1', 'todo_write', '{"todos":'), toolResult('c1', 'ok')],
      undefined,
    ],
    [
      'an unknown status is ignored',
      [write('c1', [{ content: 'a', status: 'done' }]), toolResult('c1', 'ok')],
      undefined,
    ],
    [
      'other tools are ignored',
      [toolCall('c1', 'bash', { todos: one }), toolResult('c1', 'ok')],
      undefined,
    ],
    [
      'an empty list is a list',
      [write('c1', one), toolResult('c1', 'ok'), write('c2', []), toolResult('c2', 'ok')],
      [],
      3,
    ],
  ];
  it.each(cases)('%s', (_name, payloads, items, seq) => {
    const state = foldAll<{ list?: { items: unknown[]; seq: number } }>(todoList, payloads);
    expect(state.list?.items).toEqual(items);
    expect(state.list?.seq).toBe(seq);
  });
});

describe('parseTodoArguments()', () => {
  const cases: [string, string, number | undefined][] = [
    ['a list', '{"todos":[{"content":"a","status":"pending"}]}', 1],
    ['not JSON', '{', undefined],
    ['no todos', '{}', undefined],
    ['todos not a list', '{"todos":{}}', undefined],
    ['an item without content', '{"todos":[{"status":"pending"}]}', undefined],
    ['a null item', '{"todos":[null]}', undefined],
  ];
  it.each(cases)('%s', (_name, text, count) => {
    expect(parseTodoArguments(text)?.length).toBe(count);
  });
});

describe('createProjectionRegistry()', () => {
  it('builds a Baseline from every projection', () => {
    const registry = createProjectionRegistry();
    let states = registry.initial();
    for (const event of events([
      assistantMessage({ turn: 1 }, ['a'], usage(1, 2)),
      toolCall('c1', 'todo_write', { todos: [{ content: 'x', status: 'in_progress' }] }),
      toolResult('c1', 'ok'),
      eventPayloads.inputQueued('q-1', [textBlock('later')], false),
      eventPayloads.inputQueued('q-2', [textBlock('gone')], true),
      eventPayloads.inputUnqueued('q-2', UnqueueReason.REMOVED),
    ])) {
      states = registry.fold(states, event);
    }
    const baseline = registry.baseline(registry.restore(registry.snapshot(states)), 3);
    expect(baseline.queue.map((q) => [q.queueId, q.seq, q.steer, q.content[0]?.block])).toEqual([
      ['q-1', 3, false, { case: 'text', value: expect.objectContaining({ text: 'later' }) }],
    ]);
    expect(baseline.beforeSeq).toBe(3);
    expect(baseline.tokenUsage).toMatchObject({ inputTokens: 1n, outputTokens: 2n, messages: 1 });
    expect(baseline.todoList).toMatchObject({
      seq: 2,
      items: [{ content: 'x', status: TodoStatus.IN_PROGRESS }],
    });
    expect([...registry.reads.keys()].sort()).toEqual([
      'assistant/message',
      'input/queued',
      'input/unqueued',
      'tool/call',
      'tool/result',
    ]);
  });
});
