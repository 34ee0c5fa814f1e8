import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import {
  assistantMessage,
  events,
  reasoning,
  toolCall,
  toolOutput,
  toolResult,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import {
  encodeEventLine,
  encodeHeaderLine,
  formatVersion,
  matchLine,
  searchKindNames,
  searchPatterns,
  type SearchKindName,
} from '../src/index.js';

/**
 * Every occurrence of the query's patterns in the line, ignoring case, as a fixed-string
 * search finds them (lower-casing keeps the byte length of the test texts).
 */
function ranges(raw: Buffer, query: string): { start: number; end: number }[] {
  const found: { start: number; end: number }[] = [];
  const line = Buffer.from(raw.toString('utf8').toLowerCase(), 'utf8');
  for (const pattern of searchPatterns({ text: query.toLowerCase(), regex: false })) {
    const needle = Buffer.from(pattern, 'utf8');
    for (let at = line.indexOf(needle); at >= 0; at = line.indexOf(needle, at + needle.length)) {
      found.push({ start: at, end: at + needle.length });
    }
  }
  return found.sort((a, b) => a.start - b.start);
}

function lineOf(payload: Payload): Buffer {
  return Buffer.from(encodeEventLine(events([payload], 7)[0]!), 'utf8');
}

function search(
  payload: Payload,
  query: string,
  filters: { kinds?: SearchKindName[]; toolNames?: string[] } = {},
) {
  const line = lineOf(payload);
  return matchLine(line, ranges(line, query), {
    kinds: new Set(filters.kinds ?? searchKindNames),
    toolNames: new Set(filters.toolNames ?? []),
  });
}

const image = create(ContentBlockSchema, {
  block: {
    case: 'image',
    value: { mediaType: 'image/png', data: Buffer.from('QUJDREVGR0hJSktMTU5PUA') },
  },
});
const withImage: Payload = (() => {
  const payload = toolResult('call_9', 'see the screenshot');
  if (payload.case === 'toolResult') payload.value.content.push(image);
  return payload;
})();

describe('matchLine()', () => {
  const hits: [
    string,
    Payload,
    string,
    { kind: SearchKindName; snippet: string; toolName?: string },
  ][] = [
    [
      'a prompt',
      userMessage('please fix the loader now'),
      'loader',
      { kind: 'prompt', snippet: 'please fix the loader now' },
    ],
    [
      'assistant text',
      assistantMessage({ turn: 1 }, ['The loader reads TOML.']),
      'toml',
      { kind: 'assistant', snippet: 'The loader reads TOML.' },
    ],
    [
      'assistant reasoning',
      assistantMessage({ turn: 1 }, [reasoning('thinking about caches')]),
      'caches',
      { kind: 'assistant', snippet: 'thinking about caches' },
    ],
    [
      'tool arguments with quotes',
      toolCall('call_1', 'bash', { command: 'echo "hi there"' }),
      'echo "hi',
      { kind: 'tool_arguments', snippet: '{"command":"echo "hi there""}', toolName: 'bash' },
    ],
    [
      'tool arguments across a new line',
      toolCall('call_1', 'run_code', { code: 'const a = 1;\nawait tools.grep({})' }),
      'tools.grep',
      {
        kind: 'tool_arguments',
        snippet: '{"code":"const a = 1;\nawait tools.grep({})"}',
        toolName: 'run_code',
      },
    ],
    [
      'tool output',
      toolResult('call_1', 'Error: ENOENT config.toml'),
      'enoent',
      { kind: 'tool_output', snippet: 'Error: ENOENT config.toml' },
    ],
    [
      'a live output delta',
      toolOutput('call_1', 'compiling crate foo\n'),
      'crate foo',
      { kind: 'tool_output', snippet: 'compiling crate foo\n' },
    ],
    [
      'text across a newline',
      userMessage('line one\nline two'),
      'one\nline',
      { kind: 'prompt', snippet: 'line one\nline two' },
    ],
    [
      'wide characters',
      userMessage('café ☕ 😀 naïve résumé'),
      'naïve',
      { kind: 'prompt', snippet: 'café ☕ 😀 naïve résumé' },
    ],
  ];

  it.each(hits)('hits %s', (_name, payload, query, expected) => {
    const found = search(payload, query);
    expect(found).toMatchObject({
      seq: 7,
      kind: expected.kind,
      snippet: expected.snippet,
      toolName: expected.toolName ?? '',
    });
    const match = found!.matches[0]!;
    expect(found!.snippet.slice(match.start, match.end).toLowerCase()).toBe(query.toLowerCase());
  });

  const misses: [string, Payload, string, { kinds?: SearchKindName[]; toolNames?: string[] }][] = [
    ['a JSON key', userMessage('hello'), 'text', {}],
    ['the n of an escaped newline', userMessage('a\nb'), 'n', {}],
    ['base64 image data', withImage, 'QUJDREVGR0', {}],
    ['an id', toolResult('call_zebra', 'ok'), 'zebra', {}],
    ['a kind left out', toolResult('call_1', 'needle'), 'needle', { kinds: ['prompt'] }],
    [
      'another tool',
      toolCall('call_1', 'read_file', { path: 'needle.ts' }),
      'needle',
      { toolNames: ['bash'] },
    ],
    ['a prompt when a tool is asked for', userMessage('needle'), 'needle', { toolNames: ['bash'] }],
  ];

  it.each(misses)('does not hit %s', (_name, payload, query, filters) => {
    expect(search(payload, query, filters)).toBeUndefined();
  });

  it('never hits the journal header', () => {
    const header = encodeHeaderLine({
      formatVersion,
      sessionId: 'needle',
      cwd: '/tmp/needle',
      parentId: '',
      createdAt: new Date(0).toISOString(),
      model: 'needle',
      title: 'needle',
    });
    const line = Buffer.from(header, 'utf8');
    expect(
      matchLine(line, ranges(line, 'needle'), {
        kinds: new Set(searchKindNames),
        toolNames: new Set(),
      }),
    ).toBeUndefined();
  });

  it('cuts a long field to a snippet around the first match', () => {
    const long = `${'x'.repeat(5000)} needle ${'y'.repeat(5000)}`;
    const hit = search(toolResult('call_1', long), 'needle')!;
    expect(hit.snippet.length).toBeLessThanOrEqual(200);
    expect(hit.snippet.slice(hit.matches[0]!.start, hit.matches[0]!.end)).toBe('needle');
  });
});
