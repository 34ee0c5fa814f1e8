import { create } from '@bufbuild/protobuf';
import { createConversation } from '@dsh/card-models';
import type { SessionWindow, SessionWindowState } from '@dsh/client-live';
import {
  assistantMessage,
  events,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { UsageSchema } from '@dsh/gen/content';
import { BaselineSchema, type Baseline } from '@dsh/gen/service';
import { describe, expect, it } from 'vitest';
import { plainText } from '../src/index.js';
import { dollars, latestTurnUsage, sessionCost, sessionUsage } from '../src/ui/session-usage.js';
import { statusLine } from '../src/ui/status-line.js';
import { setup } from './key-state.js';

const usage = (input: number, output: number, cacheRead = 0) =>
  create(UsageSchema, { inputTokens: input, outputTokens: output, cacheReadTokens: cacheRead });

/** Turn 1 (two steps) before the baseline at seq 6; turn 2 (one step) after it. */
const payloads = [
  userMessage('first'),
  turnStart(1),
  assistantMessage({ turn: 1, step: 0 }, ['thinking'], usage(1_000, 100)),
  assistantMessage({ turn: 1, step: 1 }, ['done'], usage(1_200, 300, 800)),
  turnEnd(1),
  userMessage('second'),
  turnStart(2),
  assistantMessage({ turn: 2 }, ['again'], usage(2_500, 500)),
];

function windowState(
  baseline: Baseline | undefined,
  upTo = payloads.length,
  firstSeq = 6,
): SessionWindowState {
  const all = events(payloads.slice(0, upTo));
  const snapshot = createConversation().apply({ kind: 'replace', events: all.slice(firstSeq) });
  return {
    sessionId: 's1',
    snapshot,
    opened: true,
    hasMore: firstSeq > 0,
    loadingOlder: false,
    baseline,
    endBaseline: undefined,
    baselinePending: false,
    connection: { kind: 'live' },
    error: undefined,
    resyncs: 0,
  };
}

const priced = (unpriced = 0) =>
  create(BaselineSchema, {
    beforeSeq: 6,
    tokenUsage: { inputTokens: 2_200n, outputTokens: 400n, cacheReadTokens: 800n, messages: 2 },
    cost: { usd: 0.0425, pricedSteps: 2 - unpriced, unpricedSteps: unpriced },
    latestTurn: {
      turn: 1,
      tokens: { inputTokens: 2_200n, outputTokens: 400n, cacheReadTokens: 800n, messages: 2 },
      cost: { usd: 0.0425, pricedSteps: 2 - unpriced, unpricedSteps: unpriced },
    },
  });

describe('sessionCost()', () => {
  it.each([
    ['no price table on the host', undefined, payloads.length, undefined],
    ['every step in the baseline, all priced', priced(), 6, { usd: 0.0425, partial: false }],
    ['a step after the baseline', priced(), payloads.length, { usd: 0.0425, partial: true }],
    ['an unpriced step in the baseline', priced(1), 6, { usd: 0.0425, partial: true }],
  ] as const)('%s', (_name, baseline, upTo, expected) => {
    expect(sessionCost(windowState(baseline, upTo))).toEqual(expected);
  });
});

describe('latestTurnUsage()', () => {
  it.each([
    [
      'the baseline’s turn, priced',
      priced(),
      6,
      { turn: 1, input: 3_000, output: 400, usd: 0.0425 },
    ],
    [
      'the window’s newer turn',
      priced(),
      payloads.length,
      { turn: 2, input: 2_500, output: 500, usd: undefined },
    ],
    [
      'no baseline: the window alone',
      undefined,
      payloads.length,
      { turn: 2, input: 2_500, output: 500, usd: undefined },
    ],
  ] as const)('%s', (_name, baseline, upTo, expected) => {
    expect(latestTurnUsage(windowState(baseline, upTo))).toEqual(expected);
  });

  it('adds the window’s steps of the baseline’s turn, without a cost', () => {
    const cut = create(BaselineSchema, {
      beforeSeq: 3,
      latestTurn: {
        turn: 1,
        tokens: { inputTokens: 1_000n, outputTokens: 100n, messages: 1 },
        cost: { usd: 0.01, pricedSteps: 1 },
      },
    });
    expect(latestTurnUsage(windowState(cut, 6, 3))).toEqual({
      turn: 1,
      input: 3_000,
      output: 400,
      usd: undefined,
    });
  });
});

describe('dollars()', () => {
  it.each([
    [0, '$0.00'],
    [0.004, '<$0.01'],
    [0.0425, '$0.04'],
    [12.3, '$12.30'],
    [123.4, '$123'],
  ])('%d', (usd, text) => expect(dollars(usd)).toBe(text));
});

describe('statusLine() usage and cost', () => {
  const withWindow = (state: SessionWindowState) => {
    const t = setup();
    if (t.state.open) {
      t.state.open = { ...t.state.open, window: { state } as unknown as SessionWindow };
    }
    return t;
  };
  it.each([
    [80, 'following  ctx 2.5k · 5.5k↑ 900↓ · $0.04+ · /p'],
    [120, 'following  context 2.5k · 5.5k in / 900 out · $0.04+ · /p · turn 2: 2.5k in / 500 out'],
  ])('at %i columns', (cols, expected) => {
    const t = withWindow(windowState(priced()));
    const text = plainText(statusLine(t.state, t.now(), cols));
    expect(text.replace(/ {2,}/g, '  ')).toBe(expected);
    expect(text.length).toBeLessThanOrEqual(cols);
  });

  it.each([
    [80, 'following  ctx 2.5k · indexing… · /p'],
    [120, 'following  context 2.5k · totals: indexing… · /p'],
  ])('at %i columns while the host indexes the session, followed', (cols, expected) => {
    const t = withWindow({ ...windowState(undefined), baselinePending: true });
    const text = plainText(statusLine(t.state, t.now(), cols));
    expect(text.replace(/ {2,}/g, '  ')).toBe(expected);
  });

  it('says the host is indexing, not connecting, while the follow waits for the index', () => {
    const waiting = { ...windowState(undefined), baselinePending: true };
    const t = withWindow({ ...waiting, connection: { kind: 'connecting' } });
    expect(plainText(statusLine(t.state, t.now(), 100)).trimEnd()).toBe(
      'the host is indexing this session: its tail is shown, live events follow',
    );
    const plain = withWindow({
      ...waiting,
      baselinePending: false,
      connection: { kind: 'connecting' },
    });
    expect(plainText(statusLine(plain.state, plain.now(), 100)).trimEnd()).toBe('connecting…');
  });
});

describe('sessionUsage() after a compaction', () => {
  it('carries the compaction’s tokens after it until the next step reports usage', () => {
    const compacted = [
      ...payloads,
      {
        case: 'contextCompaction',
        value: {
          $typeName: 'dsh.session.v1.ContextCompaction',
          turn: 2,
          summary: 'so far',
          replacedFromSeq: 0,
          keptFromSeq: 5,
          tokensBefore: 2_500,
          tokensAfter: 700,
          contextBudget: 2_000,
        },
      } as Payload,
    ];
    const state = (upTo: number) => {
      const snapshot = createConversation().apply({
        kind: 'replace',
        events: events(compacted.slice(0, upTo)),
      });
      return { ...windowState(undefined), snapshot };
    };
    expect(sessionUsage(state(payloads.length))?.context).toBe(2_500);
    expect(sessionUsage(state(compacted.length))?.context).toBe(700);
  });
});
