import { describe, expect, it } from 'vitest';
import { create } from '@bufbuild/protobuf';
import { UsageSchema } from '@dsh/gen/content';
import {
  assistantMessage,
  contextCompaction,
  events,
  toolCallBlock,
  toolResult,
  turnStart,
  usage,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { compactionSummaryHeading } from '@dsh/providers';
import { createModelHistory, estimateTokens } from '../src/index.js';
import { cutForModel } from '../src/cut-for-model.js';

const call = (id: string, turn = 1) => assistantMessage({ turn }, [toolCallBlock(id, 'emit', {})]);
const fold = (payloads: Payload[], resultTokens = 1_000) => {
  const saved: string[] = [];
  const history = createModelHistory({
    resultTokens,
    saveResult: (callId, text) => {
      saved.push(`${callId}:${text.length}`);
      return `/spill/${callId}-result.txt`;
    },
  });
  history.add(events(payloads));
  return { history, saved };
};
const shape = (payloads: Payload[]) =>
  fold(payloads)
    .history.messages()
    .map((m) => `${m.role}:${m.content.slice(0, 40)}`);

describe('createModelHistory()', () => {
  const cases: [string, Payload[], string[]][] = [
    [
      'answers each call right after its assistant message',
      [userMessage('go'), call('c1'), toolResult('c1', 'one')],
      ['user:go', 'assistant:', 'tool:one'],
    ],
    [
      'gives a call without a result a placeholder',
      [userMessage('go'), call('c1')],
      ['user:go', 'assistant:', 'tool:No result was recorded for this call (th'],
    ],
    [
      'drops a result whose call it does not hold',
      [userMessage('go'), toolResult('elsewhere', 'lost')],
      ['user:go'],
    ],
    [
      'starts from the summary and the events the compaction kept',
      [
        userMessage('old'),
        call('c1'),
        toolResult('c1', 'old result'),
        userMessage('kept'),
        call('c2'),
        toolResult('c2', 'kept result'),
        contextCompaction('the gist', 3),
        userMessage('after'),
      ],
      [
        `user:${compactionSummaryHeading.slice(0, 40)}`,
        'user:kept',
        'assistant:',
        'tool:kept result',
        'user:after',
      ],
    ],
    [
      'replaces everything before a compaction that kept nothing',
      [userMessage('old'), call('c1'), toolResult('c1', 'x'), contextCompaction('all of it', 3)],
      [`user:${compactionSummaryHeading.slice(0, 40)}`],
    ],
    [
      'keeps only the latest of several compactions',
      [
        userMessage('a'),
        contextCompaction('first', 1),
        userMessage('b'),
        contextCompaction('second', 3),
        userMessage('c'),
      ],
      [`user:${compactionSummaryHeading.slice(0, 40)}`, 'user:c'],
    ],
  ];
  it.each(cases)('%s', (_name, payloads, expected) => {
    expect(shape(payloads)).toEqual(expected);
  });

  it('folds to the same history from seq 0 as from the latest compaction’s cut', () => {
    const payloads = [
      userMessage('a'),
      call('c1'),
      toolResult('c1', 'r1'),
      contextCompaction('first', 1),
      userMessage('b'),
      call('c2'),
      toolResult('c2', 'r2'),
      contextCompaction('second', 4),
      call('c3'),
      toolResult('c3', 'r3'),
    ];
    const all = events(payloads);
    const whole = createModelHistory({ resultTokens: 1_000 });
    whole.add(all);
    const fromCut = createModelHistory({ resultTokens: 1_000 });
    fromCut.add(all.slice(4));
    expect(fromCut.messages()).toEqual(whole.messages());
    expect(fromCut.summary).toEqual({ text: 'second', seq: 7, keptFromSeq: 4 });
  });

  it('cuts a result over its share, head and tail, naming the saved file and the journal seq', () => {
    const long = Array.from({ length: 2_000 }, (_, i) => `line ${i}`).join('\n');
    const { history, saved } = fold([userMessage('go'), call('c1'), toolResult('c1', long)], 200);
    const text = history.messages()[2]!.content;
    expect(estimateTokens(text)).toBeLessThanOrEqual(200);
    expect(text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(text.endsWith('line 1999')).toBe(true);
    expect(text).toMatch(
      /\[\.\.\. \d+ characters cut here to fit the model's context window; the whole result \(\d+ characters\) is saved in \/spill\/c1-result\.txt: read or grep it for the rest; this session's journal keeps it whole \(tool\/result at seq 2\)\]/,
    );
    expect(saved).toEqual([`c1:${long.length}`]);
  });

  it('counts reported usage plus an estimate of what came after it', () => {
    const reported = create(UsageSchema, {
      inputTokens: 900,
      cacheReadTokens: 100,
      outputTokens: 50,
    });
    const { history } = fold([
      userMessage('go'),
      assistantMessage({ turn: 1 }, [toolCallBlock('c1', 'emit', {})], reported),
      toolResult('c1', 'x'.repeat(300)),
    ]);
    // 1,050 reported, plus the result's 100 estimated tokens.
    expect(history.tokens(500)).toBe(1_150);
  });

  it('distrusts a report under half the estimate (a partial count)', () => {
    const { history } = fold([
      userMessage('x'.repeat(3_000)),
      assistantMessage({ turn: 1 }, ['ok'], usage(10, 1)),
    ]);
    expect(history.tokens(100)).toBeGreaterThan(1_000);
  });

  it('ignores usage reported before the latest compaction', () => {
    const { history } = fold([
      userMessage('go'),
      assistantMessage({ turn: 1 }, ['big'], usage(50_000, 10)),
      contextCompaction('short', 1),
    ]);
    expect(history.tokens(100)).toBeLessThan(1_000);
  });

  it('tracks the latest turn from turn starts and compactions', () => {
    const { history } = fold([turnStart(3), contextCompaction('s', 1, { turn: 7 })]);
    expect(history.lastTurn).toBe(7);
    expect(history.nextSeq).toBe(2);
  });
});

/** A high surrogate without its low half, or a low one without its high half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe('cutForModel()', () => {
  const cases: [string, string, number][] = [
    ['ascii', 'abcdefghij'.repeat(500), 100],
    ['emoji at the edges', '😀'.repeat(2_000), 60],
    ['cjk', '漢字'.repeat(1_000), 80],
  ];
  it.each(cases)('cuts %s to the budget with valid text', (_name, text, max) => {
    const cut = cutForModel(text, max, 'see the journal');
    expect(estimateTokens(cut)).toBeLessThanOrEqual(max);
    expect(cut).toContain('characters cut here');
    expect(cut).not.toMatch(LONE_SURROGATE);
  });

  it('keeps text that fits', () => {
    expect(cutForModel('short', 10, 'x')).toBe('short');
  });
});
