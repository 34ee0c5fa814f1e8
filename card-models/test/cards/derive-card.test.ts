import { describe, expect, it } from 'vitest';
import {
  deriveCard,
  diffCard,
  readCard,
  searchCard,
  webCard,
  type Card,
  type PathFacts,
} from '../../src/cards/index.js';
import {
  backgroundAck,
  exitMarker,
  interruptedMessage,
  spillNotice,
  terminalSendAck,
} from '../../src/contract/index.js';
import type { ToolCallBlock } from '../../src/conversation/types.js';
import { failed, succeeded, withSubCalls } from './card-blocks.js';
import { asStopped, asSubCall, posix, toolBlock } from './tool-block.js';

const kind = (block: ToolCallBlock, facts: PathFacts = posix): string =>
  deriveCard(block, facts).body.kind;

describe('deriveCard()', () => {
  const part2: [string, ToolCallBlock, (b: ToolCallBlock) => unknown][] = [
    [
      'write',
      toolBlock('write', { file_path: 'a.txt', content: 'x\n' }),
      (b) => diffCard(b, posix),
    ],
    [
      'edit',
      toolBlock('edit', { file_path: 'a.txt', old_string: 'a', new_string: 'b' }),
      (b) => diffCard(b, posix),
    ],
    [
      'str_replace_editor',
      toolBlock('str_replace_editor', { command: 'create', path: 'a', file_text: 'x' }),
      (b) => diffCard(b, posix),
    ],
    ['read', toolBlock('read', { file_path: 'a.txt' }), (b) => readCard(b, posix)],
    ['grep', toolBlock('grep', { pattern: 'x' }), (b) => searchCard(b, posix)],
    ['glob', toolBlock('glob', { pattern: '*.ts' }), (b) => searchCard(b, posix)],
    ['web_search', toolBlock('web_search', { query: 'x' }), (b) => webCard(b)],
    ['web_fetch', toolBlock('web_fetch', { url: 'https://x.dev' }), (b) => webCard(b)],
  ];
  it.each(part2)('dispatches %s to its card model', (_, block, model) => {
    const expected = model(block) ?? { kind: 'generic' };
    expect(deriveCard(block, posix).body).toEqual(expected);
    expect(deriveCard(asSubCall(block), posix).body).toEqual({ kind: 'generic' });
  });

  // The rows of the seed's presentation-equivalence matrix that these cards own.
  const matrix: [string, ToolCallBlock, string, Partial<Card['row']>?][] = [
    [
      'unknown tool, running: Generic row with name and summary',
      toolBlock('deploy', { target: 'prod' }),
      'generic',
      { title: 'deploy', summary: 'prod', state: 'running' },
    ],
    [
      'unknown tool, settled: Generic row and raw output',
      succeeded('deploy', { target: 'prod' }, 'ok!'),
      'generic',
      { resultText: 'ok!', state: 'ok' },
    ],
    [
      'malformed arguments: safe Generic',
      toolBlock('bash', '{"command":'),
      'generic',
      { argsText: '{"command":', summary: '' },
    ],
    [
      'orphan result: callId title and Generic output',
      toolBlock('bash', {}, { callId: 'c-9', head: false, result: { content: 'out' } }),
      'generic',
      { title: 'c-9', resultText: 'out', orphan: true },
    ],
    [
      'interrupted call: stopped state',
      failed('bash', { command: 'sleep 9' }, 'interrupted', interruptedMessage, interruptedMessage),
      'generic',
      { state: 'stopped', errorText: interruptedMessage },
    ],
    [
      'foreground bash: terminal',
      succeeded('bash', { command: 'ls' }, `a\n${exitMarker(0)}`),
      'terminal',
    ],
    ['foreground pwsh: terminal', toolBlock('pwsh', { command: 'dir' }), 'terminal'],
    [
      'background bash, running: terminal start',
      toolBlock('bash', { command: 'srv', background: true }),
      'terminal',
    ],
    [
      'background bash, acknowledged: static command',
      succeeded(
        'bash',
        { command: 'srv', background: true },
        backgroundAck({ jobId: 'j', pid: 1, outputPath: '/tmp/j' }),
      ),
      'terminal',
    ],
    [
      'background bash, launch error: Generic IN/OUT',
      failed('bash', { command: 'srv', background: true }, 'spawn'),
      'generic',
      { argsText: '{\n  "command": "srv",\n  "background": true\n}', errorText: 'Failed (spawn)' },
    ],
    [
      'bash spill: Generic expandable output',
      succeeded('bash', { command: 'cat big' }, `x\n${spillNotice('/tmp/o', 10)}`),
      'generic',
      { kind: 'bash', resultText: `x\n${spillNotice('/tmp/o', 10)}` },
    ],
    [
      'persistent shell, running: terminal',
      toolBlock('bash', { command: 'ls', session: 's1' }),
      'terminal',
    ],
    [
      'persistent shell, settled: Generic',
      succeeded('bash', { command: 'ls', session: 's1' }, 'a'),
      'generic',
    ],
    [
      'terminal_send, foreground: terminal',
      succeeded('terminal_send', { session: 's1', input: 'q' }, 'bye'),
      'terminal',
    ],
    [
      'terminal_send, background: Generic',
      succeeded(
        'terminal_send',
        { session: 's1', input: 'q', background: true },
        terminalSendAck('s1'),
      ),
      'generic',
    ],
    [
      'terminal_send, error: Generic',
      failed('terminal_send', { session: 's1', input: 'q' }, 'gone'),
      'generic',
    ],
    [
      'todo row',
      toolBlock('todo_write', { todos: [{ content: 'a', status: 'completed' }] }),
      'todo',
    ],
    ['question row', toolBlock('ask_user', { questions: [{ question: 'q?' }] }), 'question'],
    ['skill row', succeeded('skill', { name: 'pdf' }, 'done'), 'skill'],
    [
      'code row',
      toolBlock('run_code', { code: 'return 1', description: 'One' }),
      'code',
      { title: 'Code', summary: 'One' },
    ],
    [
      'PTC sub-call, eligible terminal: terminal',
      asSubCall(succeeded('bash', { command: 'ls' }, exitMarker(0))),
      'terminal',
      { nested: true },
    ],
    [
      'PTC sub-call, stopped terminal: Generic',
      asSubCall(asStopped(toolBlock('bash', { command: 'ls' }))),
      'generic',
    ],
  ];
  it.each(matrix)('%s', (_, block, bodyKind, row) => {
    const card = deriveCard(block, posix);
    expect(card.body.kind).toBe(bodyKind);
    if (row) expect(card.row).toMatchObject(row);
  });

  it('derives run_code sub-calls recursively with the same rules', () => {
    const parent = withSubCalls(
      succeeded('run_code', { code: 'await tools.bash(...)', description: 'Probe' }, 'done'),
      [
        succeeded('bash', { command: 'ls' }, `a\n${exitMarker(0)}`),
        toolBlock('read', { file_path: 'a.txt' }),
        failed('grep', { pattern: 'x' }, 'bad'),
        withSubCalls(toolBlock('run_code', '{bad'), [toolBlock('todo_write', { todos: [] })]),
      ],
    );
    const card = deriveCard(parent, posix);
    expect(card.body.kind).toBe('code');
    expect(
      card.subCalls.map((sub) => `${sub.row.title}:${sub.body.kind}:${sub.row.nested}`),
    ).toEqual([
      'Bash:terminal:true',
      'Read:generic:true',
      'Grep:generic:true',
      'Code:generic:true',
    ]);
    expect(card.subCalls[3]?.subCalls.map((sub) => sub.body.kind)).toEqual(['todo']);
  });

  it('keeps sub-calls of a run_code whose own arguments are malformed', () => {
    const parent = withSubCalls(toolBlock('run_code', 'not json'), [
      toolBlock('bash', { command: 'ls' }),
    ]);
    const card = deriveCard(parent, posix);
    expect(card.body.kind).toBe('generic');
    expect(card.subCalls.map((sub) => sub.body.kind)).toEqual(['terminal']);
  });

  it('gives Generic for an orphan of every known tool', () => {
    for (const name of [
      'bash',
      'read',
      'write',
      'grep',
      'web_fetch',
      'todo_write',
      'ask_user',
      'skill',
      'run_code',
    ]) {
      expect(kind(toolBlock(name, {}, { head: false, result: { content: 'x', meta: {} } }))).toBe(
        'generic',
      );
    }
  });

  it('renders a terminal card as both clients receive it', () => {
    const block = succeeded(
      'bash',
      { command: 'npm test', description: 'Run tests', workdir: 'web' },
      `\x1b[32m✓\x1b[0m 12 passed\n${exitMarker(0)}`,
    );
    expect(deriveCard(block, posix)).toMatchSnapshot();
  });
});
