import type { EventPayload } from '@dsh/journal';
import { describe, expect, it } from 'vitest';
import { createTranscriptConverter, parseTranscriptLine, type TimedPayload } from '../src/index.js';

type Line = Record<string, unknown>;
const prompt = (text: string, extra: Line = {}): Line => ({
  type: 'user',
  message: { role: 'user', content: text },
  ...extra,
});
const reply = (
  id: string,
  content: unknown[],
  stop: string | null = null,
  extra: Line = {},
): Line => ({
  type: 'assistant',
  message: { id, role: 'assistant', model: 'm', content, stop_reason: stop },
  ...extra,
});
const text = (t: string) => ({ type: 'text', text: t });
const use = (id: string, name = 'Bash', input: unknown = { command: 'ls' }) => ({
  type: 'tool_use',
  id,
  name,
  input,
});
const result = (id: string, more: unknown[] = [], extra: Line = {}): Line => ({
  type: 'user',
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: 'out' }, ...more],
  },
  ...extra,
});
/** The `timestamp` of a line `s` seconds into the session. */
const at = (s: number): Line => ({
  timestamp: new Date(Date.UTC(2025, 10, 20, 10, 0, s)).toISOString(),
});

/** Feeds lines (and a flush after each group) and describes the events briefly. */
function convert(groups: Line[][], final: boolean, withTimes = false): string[] {
  const converter = createTranscriptConverter();
  const out: TimedPayload[] = [];
  for (const group of groups) {
    for (const line of group) {
      const parsed = parseTranscriptLine(JSON.stringify(line));
      if (!parsed.ok) throw new Error(parsed.error);
      out.push(...converter.push(parsed.value));
    }
    out.push(...converter.flush(final ? 'final' : 'pass'));
  }
  return out.map((e) => (withTimes ? describeTimed(e) : describePayload(e.payload)));
}

/** The event's description and its time as seconds after 10:00 (`@-` without a time). */
function describeTimed({ payload, time }: TimedPayload): string {
  const seconds = time === undefined ? '-' : (time - Date.UTC(2025, 10, 20, 10)) / 1000;
  return `${describePayload(payload)} @${seconds}`;
}

function describePayload(payload: EventPayload): string {
  switch (payload.case) {
    case 'userMessage':
    case 'steeringMessage':
    case 'contextMessage': {
      const body = payload.value.content
        .map((b) => (b.block.case === 'text' ? b.block.value.text : ''))
        .join('');
      const envelope = payload.case === 'contextMessage' ? `[${payload.value.envelope}]` : '';
      return `${payload.case}${envelope} ${body}`;
    }
    case 'assistantMessage':
      return `assistant ${payload.value.turn}.${payload.value.step} ${payload.value.content.map((b) => b.block.case).join(',')}`;
    case 'toolCall':
    case 'toolResult':
      return `${payload.case} ${payload.value.callId}${payload.case === 'toolResult' && payload.value.isError ? ` ${payload.value.error?.code}` : ''}`;
    case 'turnStart':
      return `turnStart ${payload.value.turn}`;
    case 'turnEnd':
      return `turnEnd ${payload.value.turn} ${payload.value.reason}`;
    case 'agentError':
      return `agentError ${payload.value.message}`;
    case 'extension':
      return `extension ${payload.value.type}`;
    case 'toolOutput':
      return `toolOutput ${payload.value.callId} ${JSON.stringify(payload.value.text)}${payload.value.truncated ? ' truncated' : ''}`;
    default:
      return String(payload.case);
  }
}

/** A `bash_progress` line of call `id` with Claude Code's output so far. */
const progress = (id: string, fullOutput: string): Line => ({
  type: 'progress',
  parentToolUseID: id,
  toolUseID: `bash-progress-${id}`,
  data: { type: 'bash_progress', output: fullOutput, fullOutput, elapsedTimeSeconds: 1 },
});

describe('createTranscriptConverter()', () => {
  it.each([
    [
      'writes bash progress of a running call as tool/output deltas, a rolling tail included',
      [
        [prompt('hi'), reply('m1', [use('c1')])],
        [
          progress('c1', 'a\n'),
          progress('c1', 'a\nb\n'),
          progress('c1', 'b\nc\n'),
          progress('c1', 'b\nc\n'),
          result('c1'),
          progress('c1', 'b\nc\nlate\n'),
        ],
      ],
      false,
      [
        'userMessage hi',
        'turnStart 1',
        'assistant 1.0 toolCall',
        'toolCall c1',
        'toolOutput c1 "a\\n"',
        'toolOutput c1 "b\\n"',
        'toolOutput c1 "c\\n"',
        'toolResult c1',
      ],
    ],
    [
      'merges the lines of one message id and ends a one-time import at EOF',
      [[prompt('hi'), reply('m1', [text('a')]), reply('m1', [text('b')])]],
      true,
      ['userMessage hi', 'turnStart 1', 'assistant 1.0 text,text', 'turnEnd 1 1'],
    ],
    [
      'merges the lines of one message read in different passes and keeps a live turn open',
      [
        [prompt('hi'), reply('m1', [text('a')])],
        [reply('m1', [use('c1')])],
        [result('c1'), reply('m2', [text('done')], 'end_turn')],
      ],
      false,
      [
        'userMessage hi',
        'turnStart 1',
        'assistant 1.0 text,toolCall',
        'toolCall c1',
        'toolResult c1',
      ],
    ],
    [
      'never ends a turn while a call is open',
      [[prompt('hi'), reply('m1', [use('c1')], 'end_turn')]],
      true,
      ['userMessage hi', 'turnStart 1', 'assistant 1.0 toolCall', 'toolCall c1'],
    ],
    [
      'settles open calls and cancels the turn when the next prompt arrives',
      [[prompt('one'), reply('m1', [use('c1')]), prompt('two')]],
      false,
      [
        'userMessage one',
        'turnStart 1',
        'assistant 1.0 toolCall',
        'toolCall c1',
        'toolResult c1 interrupted',
        'turnEnd 1 2',
        'userMessage two',
        'turnStart 2',
      ],
    ],
    [
      'records text sent beside tool results as steering',
      [[prompt('hi'), reply('m1', [use('c1')]), result('c1', [text('use -la')])]],
      false,
      [
        'userMessage hi',
        'turnStart 1',
        'assistant 1.0 toolCall',
        'toolCall c1',
        'toolResult c1',
        'steeringMessage use -la',
      ],
    ],
    [
      'maps meta lines, compact summaries and API errors',
      [
        [
          prompt('caveat', { isMeta: true }),
          prompt('summary', { isCompactSummary: true }),
          reply('m9', [text('API Error: 529')], null, { isApiErrorMessage: true }),
        ],
      ],
      false,
      [
        'contextMessage[claude-code/meta] caveat',
        'contextMessage[claude-code/compact-summary] summary',
        'agentError API Error: 529',
      ],
    ],
    [
      'opens a turn for assistant output without a prompt and keeps unknown blocks',
      [[reply('m1', [text('resumed'), { type: 'server_tool_use', id: 's1' }], 'end_turn')]],
      true,
      ['turnStart 1', 'assistant 1.0 text', 'extension claude-code/block', 'turnEnd 1 1'],
    ],
    [
      'keeps unknown line types and user lines without a message as extensions',
      [
        [
          { type: 'x-future-line', operation: 'dequeue' },
          { type: 'user', note: 'no message' },
        ],
      ],
      false,
      ['extension claude-code/x-future-line', 'extension claude-code/user'],
    ],
  ])('%s', (_name, groups, final, expected) => {
    expect(convert(groups, final)).toEqual(expected);
  });

  it.each([
    [
      "stamps events with their line's time, a message with its last line's, turn/end with the previous event's",
      [
        [
          prompt('hi', at(1)),
          reply('m1', [text('a')], null, at(2)),
          reply('m1', [use('c1')], 'tool_use', at(3)),
          result('c1', [], at(4)),
          reply('m2', [text('done')], 'end_turn', at(5)),
        ],
      ],
      true,
      [
        'userMessage hi @1',
        'turnStart 1 @1',
        'assistant 1.0 text,toolCall @3',
        'toolCall c1 @3',
        'toolResult c1 @4',
        'assistant 1.1 text @5',
        'turnEnd 1 1 @5',
      ],
    ],
    [
      'stamps settled calls and turn/end with the interrupting line, keeping order when time goes back',
      [
        [
          prompt('go', at(10)),
          reply('m1', [use('c1')], 'tool_use', at(12)),
          { type: 'x-future-line', note: 'no time' },
          prompt('[Request interrupted by user]', at(11)),
        ],
      ],
      false,
      [
        'userMessage go @10',
        'turnStart 1 @10',
        'assistant 1.0 toolCall @12',
        'toolCall c1 @12',
        'extension claude-code/x-future-line @12',
        'toolResult c1 interrupted @11',
        'turnEnd 1 2 @11',
      ],
    ],
    [
      'leaves events before the first time without one and ignores a bad timestamp',
      [
        [
          { type: 'x-future-line', note: 'first' },
          prompt('hi', { timestamp: 'yesterday' }),
          prompt('again', { timestamp: '+010000-01-01T00:00:00.000Z' }),
          prompt('timed', at(7)),
          prompt('late', { timestamp: 'later' }),
        ],
      ],
      false,
      [
        'extension claude-code/x-future-line @-',
        'userMessage hi @-',
        'turnStart 1 @-',
        'turnEnd 1 1 @-',
        'userMessage again @-',
        'turnStart 2 @-',
        'turnEnd 2 1 @7',
        'userMessage timed @7',
        'turnStart 3 @7',
        'turnEnd 3 1 @7',
        'userMessage late @7',
        'turnStart 4 @7',
      ],
    ],
  ])('%s', (_name, groups, final, expected) => {
    expect(convert(groups, final, true)).toEqual(expected);
  });

  it('continues from a saved state exactly as if it had never stopped', () => {
    const lines = [
      prompt('hi', at(1)),
      reply('m1', [text('thinking done')], null, at(2)),
      reply('m1', [use('c1')], null, at(3)),
      result('c1', [], at(4)),
      reply('m2', [text('ok')], 'end_turn', at(5)),
    ];
    const whole = createTranscriptConverter();
    const first = createTranscriptConverter();
    const parse = (line: Line) => {
      const parsed = parseTranscriptLine(JSON.stringify(line));
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.value;
    };
    const expected = lines.flatMap((l) => whole.push(parse(l)));
    // The state is saved while m1 is still being merged: its time must survive too.
    const head = lines.slice(0, 3).flatMap((l) => first.push(parse(l)));
    const second = createTranscriptConverter(JSON.parse(JSON.stringify(first.state())));
    const tail = lines.slice(3).flatMap((l) => second.push(parse(l)));
    expect([...head, ...tail].map(describeTimed)).toEqual(expected.map(describeTimed));
    expect(expected.map(describeTimed)).toContain('toolCall c1 @3');
  });
});

describe('parseTranscriptLine()', () => {
  it.each([
    ['{"type":"user"}', true],
    ['{"type":""}', false],
    ['[1,2]', false],
    ['{"type":"user", oops', false],
    ['{"no":"type"}', false],
  ])('%s -> ok %s', (line, ok) => {
    expect(parseTranscriptLine(line).ok).toBe(ok);
  });
});
