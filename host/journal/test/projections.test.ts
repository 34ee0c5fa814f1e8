import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema, UsageSchema } from '@dsh/gen/content';
import { UnqueueReason } from '@dsh/gen/events';
import { TodoStatus } from '@dsh/gen/service';
import {
  assistantMessage,
  contextCompaction,
  events,
  toolCall,
  toolResult,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import {
  createProjectionRegistry,
  latestCompaction,
  latestTurn,
  parseTodoArguments,
  sessionCost,
  standardProjections,
  todoList,
  tokenUsage,
  type ModelPrice,
  type Projection,
} from '../src/projections/index.js';
import { eventPayloads } from '../src/event-payloads.js';

const textBlock = (text: string) =>
  create(ContentBlockSchema, { block: { case: 'text', value: { text } } });

function foldAll<S>(projection: Projection<never>, payloads: Payload[]): S {
  let state = projection.initial() as unknown;
  for (const event of events(payloads)) {
    state = (projection.fold as unknown as (s: unknown, e: typeof event) => unknown)(state, event);
  }
  // Every state survives a snapshot round trip through JSON text.
  const snapshot = JSON.parse(JSON.stringify(projection.snapshot(state as never)));
  expect(projection.restore(snapshot)).toEqual(state);
  return state as S;
}

const demoPrice: ModelPrice = { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 4 };
const prices = new Map([['demo', demoPrice]]);
const cached = create(UsageSchema, {
  inputTokens: 1_000_000,
  outputTokens: 100_000,
  cacheReadTokens: 2_000_000,
  cacheWriteTokens: 250_000,
});

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
    expect(foldAll(tokenUsage as Projection<never>, payloads)).toMatchObject(expected);
  });

  it("adds a compaction's usage to the tokens but not to the message count", () => {
    const payloads = [
      assistantMessage({ turn: 1 }, ['a'], usage(3, 4)),
      contextCompaction('s', 1, { usage: usage(100, 20) }),
    ];
    expect(foldAll(tokenUsage as Projection<never>, payloads)).toMatchObject({
      inputTokens: 103n,
      outputTokens: 24n,
      messages: 1,
    });
  });
});

describe('sessionCost()', () => {
  const other = { ...assistantMessage({ turn: 1 }, ['x'], usage(5, 5)) };
  (other.value as { model: string }).model = 'unpriced-model';
  const cases: [string, Payload[], { usd: number; pricedSteps: number; unpricedSteps: number }][] =
    [
      ['nothing', [], { usd: 0, pricedSteps: 0, unpricedSteps: 0 }],
      [
        'prices every kind of token per million',
        [assistantMessage({ turn: 1 }, ['a'], cached)],
        // 1M input * 2 + 0.1M output * 10 + 2M cache reads * 0.5 + 0.25M cache writes * 4
        { usd: 5, pricedSteps: 1, unpricedSteps: 0 },
      ],
      [
        'counts a model without a price apart',
        [assistantMessage({ turn: 1 }, ['a'], cached), other],
        { usd: 5, pricedSteps: 1, unpricedSteps: 1 },
      ],
      [
        "prices a compaction's summarising calls",
        [contextCompaction('s', 0, { usage: usage(500_000, 0) })],
        { usd: 1, pricedSteps: 1, unpricedSteps: 0 },
      ],
      [
        'skips steps without usage',
        [assistantMessage({ turn: 1 }, ['a'])],
        { usd: 0, pricedSteps: 0, unpricedSteps: 0 },
      ],
    ];
  it.each(cases)('%s', (_name, payloads, expected) => {
    expect(foldAll(sessionCost(prices) as Projection<never>, payloads)).toEqual(expected);
  });
});

describe('latestTurn()', () => {
  it('sums the latest turn with usage and starts again on a new turn', () => {
    const payloads = [
      assistantMessage({ turn: 1 }, ['a'], usage(10, 1)),
      assistantMessage({ turn: 2 }, ['b'], usage(1_000_000, 0)),
      contextCompaction('s', 1, { turn: 2, usage: usage(0, 100_000) }),
      assistantMessage({ turn: 2, step: 1 }, ['c']),
    ];
    const state = foldAll<{ turn: number; tokens: object; cost: object }>(
      latestTurn(prices) as Projection<never>,
      payloads,
    );
    expect(state.turn).toBe(2);
    expect(state.tokens).toMatchObject({
      inputTokens: 1_000_000n,
      outputTokens: 100_000n,
      messages: 1,
    });
    expect(state.cost).toEqual({ usd: 3, pricedSteps: 2, unpricedSteps: 0 });
  });

  it('is absent before any usage', () => {
    expect(
      foldAll(latestTurn(undefined) as Projection<never>, [assistantMessage({ turn: 1 }, ['a'])]),
    ).toBe(undefined);
  });
});

describe('latestCompaction', () => {
  it('keeps the seq and cut of the latest compaction', () => {
    const payloads = [
      userMessage('q'),
      contextCompaction('first', 0, { tokensBefore: 10, tokensAfter: 2 }),
      userMessage('r'),
      contextCompaction('second', 2, { tokensBefore: 30, tokensAfter: 5 }),
      userMessage('s'),
    ];
    expect(foldAll(latestCompaction as Projection<never>, payloads)).toEqual({
      seq: 3,
      keptFromSeq: 2,
      tokensBefore: 30,
      tokensAfter: 5,
    });
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
    const state = foldAll<{ list?: { items: unknown[]; seq: number } }>(
      todoList as Projection<never>,
      payloads,
    );
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
      'context/compaction',
      'input/queued',
      'input/unqueued',
      'tool/call',
      'tool/result',
    ]);
    expect(baseline.latestCompaction).toBeUndefined();
    expect(baseline.latestTurn).toMatchObject({ turn: 1, tokens: { inputTokens: 1n } });
    expect(baseline.latestTurn?.cost).toBeUndefined();
    expect(baseline.cost).toBeUndefined();
  });

  it('adds the cost with a price table', () => {
    const registry = createProjectionRegistry(standardProjections(prices));
    let states = registry.initial();
    for (const event of events([
      assistantMessage({ turn: 1 }, ['a'], cached),
      contextCompaction('s', 0, { tokensBefore: 9, tokensAfter: 3 }),
    ])) {
      states = registry.fold(states, event);
    }
    const baseline = registry.baseline(registry.restore(registry.snapshot(states)), 2);
    expect(baseline.cost).toMatchObject({ usd: 5, pricedSteps: 1, unpricedSteps: 0 });
    expect(baseline.latestTurn?.cost).toMatchObject({ usd: 5 });
    expect(baseline.latestCompaction).toMatchObject({ seq: 1, keptFromSeq: 0, tokensBefore: 9 });
    expect(registry.reads.get('assistant/message')).toEqual(['usage', 'model', 'turn']);
  });
});
