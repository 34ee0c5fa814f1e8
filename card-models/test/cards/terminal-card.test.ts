import { describe, expect, it } from 'vitest';
import { terminalCard, type TerminalCard } from '../../src/cards/index.js';
import {
  backgroundAck,
  exitMarker,
  signalMarker,
  spillNotice,
  terminalSendAck,
  timeoutNotice,
} from '../../src/contract/index.js';
import type { ToolCallBlock } from '../../src/conversation/types.js';
import { failed, failedWithoutError, succeeded } from './card-blocks.js';
import { asStopped, asSubCall, posix, toolBlock, windows } from './tool-block.js';

const unc = { cwd: '\\\\build\\share\\repo', home: 'C:\\Users\\ada' };
const ls = { command: 'ls -la', description: 'List files' };
const ack = backgroundAck({ jobId: 'j1', pid: 42, outputPath: '/tmp/j1.log' });

type Expected = 'Generic' | Partial<TerminalCard>;
type Case = readonly [string, ToolCallBlock, Expected];

function check(block: ToolCallBlock, expected: Expected, facts = posix): void {
  const card = terminalCard(block, facts);
  if (expected === 'Generic') expect(card).toBeUndefined();
  else expect(card).toMatchObject({ kind: 'terminal', ...expected });
}

describe('terminalCard()', () => {
  const foreground: Case[] = [
    [
      'running: prompt, description, session cwd, running state',
      toolBlock('bash', ls),
      {
        tool: 'bash',
        command: 'ls -la',
        description: 'List files',
        cwd: '/home/ada/project',
        displayCwd: '~/project',
        state: 'running',
        background: false,
        output: undefined,
        ending: undefined,
      },
    ],
    [
      'exit marker becomes the pill and leaves the body',
      succeeded('bash', ls, `a\nb\n${exitMarker(0)}`),
      { state: 'ok', output: 'a\nb', ending: { kind: 'exit', code: 0 } },
    ],
    [
      'non-zero exit marker',
      succeeded('bash', ls, `oops\n${exitMarker(2)}\n`),
      { state: 'ok', output: 'oops', ending: { kind: 'exit', code: 2 } },
    ],
    [
      'signal marker becomes the pill',
      succeeded('bash', ls, `x\n${signalMarker('SIGKILL')}`),
      { output: 'x', ending: { kind: 'signal', signal: 'SIGKILL' } },
    ],
    [
      'timeout notice stays in the body',
      succeeded('bash', ls, `x\n${timeoutNotice(5000)}\n${signalMarker('SIGTERM')}`),
      {
        output: `x\n${timeoutNotice(5000)}`,
        ending: { kind: 'signal', signal: 'SIGTERM' },
        timedOut: true,
      },
    ],
    [
      'a timeout notice that is not the last line of the body is output',
      succeeded('bash', ls, `${timeoutNotice(5)}\nmore\n${exitMarker(0)}`),
      { timedOut: false, ending: { kind: 'exit', code: 0 } },
    ],
    [
      'sandbox notice stays in the body',
      succeeded('bash', ls, `[sandbox: write to /etc denied]\n${exitMarker(1)}`),
      { output: '[sandbox: write to /etc denied]', ending: { kind: 'exit', code: 1 } },
    ],
    [
      'no marker: the whole text is the body, no pill',
      succeeded('bash', ls, 'just text'),
      { output: 'just text', ending: undefined },
    ],
    [
      'a marker that is not the last line stays in the body',
      succeeded('bash', ls, `${exitMarker(3)}\nmore`),
      { output: `${exitMarker(3)}\nmore`, ending: undefined },
    ],
    [
      'error result with an exit marker is still the command output',
      failed('bash', ls, 'timeout', `x\n${timeoutNotice(10)}\n${signalMarker('SIGKILL')}`),
      { state: 'error', output: `x\n${timeoutNotice(10)}`, timedOut: true },
    ],
    [
      'a stopped command that recorded an ending keeps its output',
      failed('bash', ls, 'interrupted', `built 3 of 9\n${signalMarker('SIGTERM')}`),
      { state: 'stopped', output: 'built 3 of 9', ending: { kind: 'signal', signal: 'SIGTERM' } },
    ],
    ['error result without a marker is Generic', failed('bash', ls, 'denied'), 'Generic'],
    [
      'error result without structured error is Generic',
      failedWithoutError('bash', ls, 'spawn failed'),
      'Generic',
    ],
    ['interrupted (stopped) call is Generic', asStopped(toolBlock('bash', ls)), 'Generic'],
    [
      'a stopped call without an ending is Generic',
      failed('bash', ls, 'interrupted', 'Interrupted: the turn was cancelled'),
      'Generic',
    ],
    [
      'spill notice at the end gives Generic',
      succeeded('bash', ls, `head\n${spillNotice('/tmp/out.txt', 99999)}`),
      'Generic',
    ],
    [
      'pwsh follows the same rules',
      succeeded('pwsh', { command: 'Get-ChildItem' }, `a\n${exitMarker(0)}`),
      { tool: 'pwsh', command: 'Get-ChildItem', description: undefined, output: 'a' },
    ],
  ];
  it.each(foreground)('standard foreground: %s', (_, block, expected) => check(block, expected));

  const workdirs: [string, Record<string, unknown>, typeof posix, string, string][] = [
    ['missing', {}, posix, '/home/ada/project', '~/project'],
    ['empty', { workdir: '' }, posix, '/home/ada/project', '~/project'],
    ['relative', { workdir: 'src/lib' }, posix, '/home/ada/project/src/lib', '~/project/src/lib'],
    ['relative with ..', { workdir: '../other/./x' }, posix, '/home/ada/other/x', '~/other/x'],
    ['absolute outside home', { workdir: '/var//log/' }, posix, '/var/log', '/var/log'],
    ['above the root', { workdir: '/../../etc' }, posix, '/etc', '/etc'],
    ['home itself', { workdir: '/home/ada' }, posix, '/home/ada', '~'],
    [
      'Windows relative',
      { workdir: 'src\\app' },
      windows,
      'C:\\Users\\ada\\project\\src\\app',
      '~\\project\\src\\app',
    ],
    ['Windows drive, lower case', { workdir: 'd:/build/..\\out' }, windows, 'D:\\out', 'D:\\out'],
    [
      'Windows home in other case',
      { workdir: 'c:\\users\\ADA\\x' },
      windows,
      'C:\\users\\ADA\\x',
      '~\\x',
    ],
    ['Windows rooted without drive', { workdir: '\\temp' }, windows, 'C:\\temp', 'C:\\temp'],
    [
      'UNC absolute',
      { workdir: '\\\\srv\\pub\\a\\..\\b' },
      windows,
      '\\\\srv\\pub\\b',
      '\\\\srv\\pub\\b',
    ],
    [
      'relative under a UNC cwd',
      { workdir: '..\\..\\..\\up' },
      unc,
      '\\\\build\\share\\up',
      '\\\\build\\share\\up',
    ],
  ];
  it.each(workdirs)('cwd from workdir: %s', (_, extra, facts, cwd, displayCwd) => {
    check(toolBlock('bash', { command: 'make', ...extra }), { cwd, displayCwd }, facts);
  });

  const background: Case[] = [
    [
      'running: the prompt',
      toolBlock('bash', { command: 'npm run dev', background: true }),
      { state: 'running', background: true, output: undefined },
    ],
    [
      'acknowledged: the static command only, no output or job status',
      succeeded('bash', { command: 'npm run dev', background: true }, ack),
      {
        state: 'ok',
        background: true,
        command: 'npm run dev',
        output: undefined,
        ending: undefined,
      },
    ],
    [
      'launch error: Generic',
      failed('bash', { command: 'npm run dev', background: true }, 'spawn'),
      'Generic',
    ],
    [
      'settled without an acknowledgement: Generic',
      succeeded('bash', { command: 'x', background: true }, `x\n${exitMarker(0)}`),
      'Generic',
    ],
    [
      'background: false is the foreground card',
      succeeded('bash', { command: 'x', background: false }, `y\n${exitMarker(0)}`),
      { background: false, output: 'y' },
    ],
  ];
  it.each(background)('explicit background: %s', (_, block, expected) => check(block, expected));

  const persistent: Case[] = [
    [
      'running: a prompt with the session',
      toolBlock('bash', { command: 'cd src', session: 'sh-1', description: 'Enter src' }),
      { state: 'running', session: 'sh-1', cwd: undefined, description: 'Enter src' },
    ],
    ['settled: Generic', succeeded('bash', { command: 'pwd', session: 'sh-1' }, '/x'), 'Generic'],
    ['error: Generic', failed('pwsh', { command: 'pwd', session: 'sh-1' }, 'gone'), 'Generic'],
    [
      'standard fields next to session are ambiguous: Generic',
      toolBlock('bash', { command: 'pwd', session: 'sh-1', workdir: '/' }),
      'Generic',
    ],
    ['non-string session: Generic', toolBlock('bash', { command: 'pwd', session: 7 }), 'Generic'],
  ];
  it.each(persistent)('persistent shell: %s', (_, block, expected) => check(block, expected));

  const send: Case[] = [
    [
      'foreground running: prompt with the input',
      toolBlock('terminal_send', { session: 'sh-1', input: 'q' }),
      { tool: 'terminal_send', command: 'q', session: 'sh-1', state: 'running' },
    ],
    [
      'foreground settled: the terminal output, no pill parsing',
      succeeded('terminal_send', { session: 'sh-1', input: '' }, `out\n${exitMarker(1)}`),
      { command: '', output: `out\n${exitMarker(1)}`, ending: undefined, state: 'ok' },
    ],
    [
      'background: Generic while running',
      toolBlock('terminal_send', { session: 'sh-1', input: 'x', background: true }),
      'Generic',
    ],
    [
      'background acknowledged: Generic',
      succeeded(
        'terminal_send',
        { session: 'sh-1', input: 'x', background: true },
        terminalSendAck('sh-1'),
      ),
      'Generic',
    ],
    [
      'error: Generic',
      failed('terminal_send', { session: 'sh-1', input: 'x' }, 'no_session'),
      'Generic',
    ],
    ['missing input: Generic', toolBlock('terminal_send', { session: 'sh-1' }), 'Generic'],
  ];
  it.each(send)('terminal_send: %s', (_, block, expected) => check(block, expected));

  const malformed: Case[] = [
    ['arguments not JSON', toolBlock('bash', '{"command": "ls"'), 'Generic'],
    ['arguments an array', toolBlock('bash', '["ls"]'), 'Generic'],
    ['command missing', toolBlock('bash', { description: 'x' }), 'Generic'],
    ['command blank', toolBlock('bash', { command: '  ' }), 'Generic'],
    ['command not a string', toolBlock('bash', { command: ['ls'] }), 'Generic'],
    ['description not a string', toolBlock('bash', { command: 'ls', description: 1 }), 'Generic'],
    ['workdir not a string', toolBlock('bash', { command: 'ls', workdir: 1 }), 'Generic'],
    [
      'background not a boolean',
      toolBlock('bash', { command: 'ls', background: 'yes' }),
      'Generic',
    ],
    ['timeout_ms not a number', toolBlock('bash', { command: 'ls', timeout_ms: '5' }), 'Generic'],
    [
      'missing call head (orphan)',
      toolBlock('bash', ls, { head: false, result: { content: exitMarker(0) } }),
      'Generic',
    ],
    ['another tool', toolBlock('bashful', ls), 'Generic'],
  ];
  it.each(malformed)('malformed input: %s', (_, block, expected) => check(block, expected));

  it.each([...foreground, ...background, ...persistent, ...send, ...malformed])(
    'sub-call follows the top-level rule: %s',
    (_, block, expected) => check(asSubCall(block), expected),
  );
});
