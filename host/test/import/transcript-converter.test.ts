import type { EventPayload } from '../../src/journal/index.js';
import { describe, expect, it } from 'vitest';
import { createTranscriptConverter, parseTranscriptLine } from '../../src/import/index.js';

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
const result = (id: string, more: unknown[] = []): Line => ({
  type: 'user',
  message: {
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: 'out' }, ...more],
  },
});

/** Feeds lines (and a flush after each group) and describes the payloads briefly. */
function convert(groups: Line[][], final: boolean): string[] {
  const converter = createTranscriptConverter();
  const out: EventPayload[] = [];
  for (const group of groups) {
    for (const line of group) {
      const parsed = parseTranscriptLine(JSON.stringify(line));
      if (!parsed.ok) throw new Error(parsed.error);
      out.push(...converter.push(parsed.value));
    }
    out.push(...converter.flush(final));
  }
  return out.map(describePayload);
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
    default:
      return String(payload.case);
  }
}

describe('createTranscriptConverter()', () => {
  it.each([
    [
      'merges the lines of one message id and ends a one-time import at EOF',
      [[prompt('hi'), reply('m1', [text('a')]), reply('m1', [text('b')])]],
      true,
      ['userMessage hi', 'turnStart 1', 'assistant 1.0 text,text', 'turnEnd 1 1'],
    ],
    [
      'keeps a live turn open until the transcript says it ended',
      [
        [prompt('hi'), reply('m1', [text('a')])],
        [reply('m1', [use('c1')])],
        [result('c1'), reply('m2', [text('done')], 'end_turn')],
      ],
      false,
      [
        'userMessage hi',
        'turnStart 1',
        'assistant 1.0 text',
        'assistant 1.1 toolCall',
        'toolCall c1',
        'toolResult c1',
        'assistant 1.2 text',
        'turnEnd 1 1',
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
        'contextMessage[compact-summary] summary',
        'agentError API Error: 529',
      ],
    ],
    [
      'opens a turn for assistant output without a prompt and keeps unknown blocks',
      [[reply('m1', [text('resumed'), { type: 'server_tool_use', id: 's1' }], 'end_turn')]],
      false,
      ['turnStart 1', 'assistant 1.0 text', 'extension claude-code/block', 'turnEnd 1 1'],
    ],
    [
      'keeps unknown line types and user lines without a message as extensions',
      [
        [
          { type: 'queue-operation', operation: 'dequeue' },
          { type: 'user', note: 'no message' },
        ],
      ],
      false,
      ['extension claude-code/queue-operation', 'extension claude-code/user'],
    ],
  ])('%s', (_name, groups, final, expected) => {
    expect(convert(groups, final)).toEqual(expected);
  });

  it('continues from a saved state exactly as if it had never stopped', () => {
    const lines = [
      prompt('hi'),
      reply('m1', [use('c1')]),
      result('c1'),
      reply('m2', [text('ok')], 'end_turn'),
    ];
    const whole = createTranscriptConverter();
    const first = createTranscriptConverter();
    const parse = (line: Line) => {
      const parsed = parseTranscriptLine(JSON.stringify(line));
      if (!parsed.ok) throw new Error(parsed.error);
      return parsed.value;
    };
    const expected = lines.flatMap((l) => whole.push(parse(l)));
    const head = lines.slice(0, 2).flatMap((l) => first.push(parse(l)));
    const second = createTranscriptConverter(JSON.parse(JSON.stringify(first.state())));
    const tail = lines.slice(2).flatMap((l) => second.push(parse(l)));
    expect([...head, ...tail].map(describePayload)).toEqual(expected.map(describePayload));
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
