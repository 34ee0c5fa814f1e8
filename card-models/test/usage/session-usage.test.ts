import { create } from '@bufbuild/protobuf';
import {
  compactCount,
  exactCount,
  sessionUsage,
  usdLabel,
  type SessionUsage,
  type TokenCounts,
} from '@dsh/card-models';
import {
  assistantMessage,
  contextCompaction,
  turnEnd,
  turnStart,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { BaselineSchema, type Baseline } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { assemble } from '../conversation/conversation-helpers.js';

function tokens(input: number, output: number, steps: number): TokenCounts {
  return { input, output, cacheRead: 0, cacheWrite: 0, reasoning: 0, steps };
}

function turn(n: number, steps: readonly [number, number][]): Payload[] {
  return [
    turnStart(n),
    userMessage(`question ${n}`),
    ...steps.map(([input, output], step) =>
      assistantMessage({ turn: n, step }, [`answer ${n}.${step}`], usage(input, output)),
    ),
    turnEnd(n),
  ];
}

function baseline(fields: Record<string, unknown>): Baseline {
  return create(BaselineSchema, fields);
}

/** Turn 1: seqs 0..4 (user at 1, steps at 2 and 3, end at 4); turn 2: seqs 5..8. */
const twoTurns = [
  ...turn(1, [
    [100, 10],
    [200, 20],
  ]),
  ...turn(2, [[300, 30]]),
];

type Case = [string, Payload[], number, Baseline | undefined, Partial<SessionUsage>];

describe('sessionUsage()', () => {
  it.each<Case>([
    [
      'a whole session in the window, no baseline',
      twoTurns,
      0,
      undefined,
      { total: tokens(600, 60, 3), cost: undefined, context: { used: 330, budget: 0 } },
    ],
    [
      'a tail window after a baseline: the baseline plus the steps after it',
      turn(2, [[300, 30]]),
      5,
      baseline({
        beforeSeq: 5,
        tokenUsage: { inputTokens: 300n, outputTokens: 30n, messages: 2 },
        cost: { usd: 0.5, pricedSteps: 2 },
      }),
      {
        total: tokens(600, 60, 3),
        cost: { usd: 0.5, unpricedSteps: 0, newerSteps: 1 },
      },
    ],
    [
      'older pages loaded: steps before the baseline are not counted twice',
      twoTurns,
      0,
      baseline({
        beforeSeq: 5,
        tokenUsage: { inputTokens: 300n, outputTokens: 30n, messages: 2 },
      }),
      { total: tokens(600, 60, 3), cost: undefined },
    ],
    [
      'a compaction after the latest step sets the context and its budget',
      [...turn(1, [[900, 100]]), contextCompaction('Summary.', 3, { turn: 1 })],
      0,
      undefined,
      { context: { used: 1_200, budget: 8_000 } },
    ],
    [
      'the latest step after a compaction fills the context again, budget kept',
      [
        ...turn(1, [[900, 100]]),
        contextCompaction('Summary.', 3, { turn: 1 }),
        ...turn(2, [[400, 50]]),
      ],
      0,
      undefined,
      { context: { used: 450, budget: 8_000 } },
    ],
  ])('%s', (_, payloads, firstSeq, base, expected) => {
    const facts = sessionUsage(assemble(payloads, firstSeq).nodes, base);
    expect(facts).toMatchObject(expected);
  });

  it('times and counts each turn of the window', () => {
    const facts = sessionUsage(assemble(twoTurns).nodes, undefined);
    const epoch = Date.UTC(2026, 0, 1);
    expect([...facts.turns.values()]).toEqual([
      {
        turn: 1,
        tokens: tokens(300, 30, 2),
        costUsd: undefined,
        startMs: epoch + 1_000,
        endMs: epoch + 4_000,
      },
      {
        turn: 2,
        tokens: tokens(300, 30, 1),
        costUsd: undefined,
        startMs: epoch + 6_000,
        endMs: epoch + 8_000,
      },
    ]);
  });

  it.each<[string, Baseline, TokenCounts, number | undefined]>([
    [
      'completes a turn that started before the window from the baseline’s latest turn',
      baseline({
        beforeSeq: 3,
        latestTurn: {
          turn: 1,
          tokens: { inputTokens: 100n, outputTokens: 10n, messages: 1 },
          cost: { usd: 0.25, pricedSteps: 1 },
        },
      }),
      tokens(300, 30, 2),
      undefined,
    ],
    [
      'gives the cost of a turn the baseline priced whole',
      baseline({
        beforeSeq: 4,
        latestTurn: {
          turn: 1,
          tokens: { inputTokens: 300n, outputTokens: 30n, messages: 2 },
          cost: { usd: 0.75, pricedSteps: 2 },
        },
      }),
      tokens(300, 30, 2),
      0.75,
    ],
  ])('%s', (_, base, expectedTokens, expectedCost) => {
    // The window starts at the turn's second step (seq 3), or at its end (seq 4).
    const payloads = twoTurns.slice(base.beforeSeq, 5);
    const facts = sessionUsage(assemble(payloads, base.beforeSeq).nodes, base);
    expect(facts.turns.get(1)).toMatchObject({ tokens: expectedTokens, costUsd: expectedCost });
  });

  it('leaves out turns with neither usage nor an end', () => {
    const facts = sessionUsage(
      assemble([turnStart(1), userMessage('hi'), assistantMessage({ turn: 1 }, ['hello'])]).nodes,
      undefined,
    );
    expect(facts.turns.size).toBe(0);
    expect(facts.context).toBeUndefined();
  });
});

describe('compactCount()', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1_000, '1k'],
    [1_250, '1.3k'],
    [12_345, '12k'],
    [128_000, '128k'],
    [1_240_000, '1.24M'],
    [2_000_000, '2M'],
  ])('%i -> %s', (n, label) => expect(compactCount(n)).toBe(label));
});

describe('exactCount()', () => {
  it.each([
    [0, '0'],
    [950, '950'],
    [1_000, '1,000'],
    [12_345, '12,345'],
    [1_240_000, '1,240,000'],
    [-1_240_000, '-1,240,000'],
    [1234.6, '1,235'],
    [Number.NaN, 'NaN'],
  ])('%d -> %s', (n, label) => expect(exactCount(n)).toBe(label));
  it('matches toLocaleString("en-US") on whole numbers', () => {
    for (const n of [7, 999, 1001, 65_536, 123_456_789, 9_007_199_254_740_991]) {
      expect(exactCount(n)).toBe(n.toLocaleString('en-US'));
    }
  });
});

describe('usdLabel()', () => {
  it.each([
    [0, '$0'],
    [0.0042, '$0.0042'],
    [0.4249, '$0.42'],
    [12.3, '$12.30'],
  ])('%f -> %s', (usd, label) => expect(usdLabel(usd)).toBe(label));
});
