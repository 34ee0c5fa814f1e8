import { describe, expect, it } from 'vitest';
import { deriveCard, type CardStatus } from '../../src/cards/index.js';
import {
  errorCodes,
  exitMarker,
  interruptedMessage,
  signalMarker,
  spillNotice,
  timeoutNotice,
} from '../../src/contract/index.js';
import type { ToolCallBlock } from '../../src/conversation/types.js';
import { failed, succeeded } from './card-blocks.js';
import { asStopped, asSubCall, posix, toolBlock } from './tool-block.js';

const ls = { command: 'ls' };
const ask = { questions: [{ question: 'Go?', options: [{ label: 'yes' }] }] };
const fetch = (statusCode: number) =>
  toolBlock(
    'web_fetch',
    { url: 'https://example.com/a' },
    {
      result: {
        content: 'page',
        meta: { url: 'https://example.com/a', statusCode, truncated: false },
      },
    },
  );
const status = (state: CardStatus['state'], label: string): CardStatus => ({ state, label });

describe('cardStatus()', () => {
  const cases: [string, ToolCallBlock, CardStatus][] = [
    ['running', toolBlock('bash', ls), status('running', 'running')],
    ['exit 0 is done', succeeded('bash', ls, `a\n${exitMarker(0)}`), status('ok', 'done')],
    ['no marker is done', succeeded('bash', ls, 'a'), status('ok', 'done')],
    [
      'a non-zero exit failed',
      succeeded('bash', ls, `a\n${exitMarker(1)}`),
      status('error', 'failed'),
    ],
    [
      'a signal killed it',
      succeeded('bash', ls, `a\n${signalMarker('SIGKILL')}`),
      status('error', 'killed'),
    ],
    [
      'a timeout notice is a timeout, not a kill',
      succeeded('bash', ls, `a\n${timeoutNotice(30000)}\n${signalMarker('SIGTERM')}`),
      status('error', 'timed out'),
    ],
    [
      'a timeout error from the host',
      failed('bash', ls, errorCodes.timeout, `a\n${timeoutNotice(10)}\n${signalMarker('SIGKILL')}`),
      status('error', 'timed out'),
    ],
    [
      'a timeout error of another tool',
      failed('run_code', { code: 'x', description: 'd' }, errorCodes.timeout),
      status('error', 'timed out'),
    ],
    [
      'spilled output with a non-zero exit (Generic body) failed',
      succeeded('bash', ls, `a\n${exitMarker(3)}\n${spillNotice('/tmp/o.txt', 99999)}`),
      status('error', 'failed'),
    ],
    [
      'spilled output with exit 0 is done',
      succeeded('bash', ls, `a\n${exitMarker(0)}\n${spillNotice('/tmp/o.txt', 99999)}`),
      status('ok', 'done'),
    ],
    [
      'an exit marker in another tool means nothing',
      succeeded('read_logs', {}, `a\n${exitMarker(1)}`),
      status('ok', 'done'),
    ],
    ['a tool error', failed('read', { file_path: 'x' }, 'not_found'), status('error', 'error')],
    ['stopped by a cancelled turn', asStopped(toolBlock('bash', ls)), status('stopped', 'stopped')],
    [
      'stopped: the host recorded the interruption with output and a signal',
      failed(
        'bash',
        ls,
        errorCodes.interrupted,
        `a\n${signalMarker('SIGTERM')}`,
        interruptedMessage,
      ),
      status('stopped', 'stopped'),
    ],
    [
      'a declined question',
      failed('ask_user', ask, errorCodes.cancelled),
      status('declined', 'declined'),
    ],
    ['an answered question', succeeded('ask_user', ask, 'yes'), status('ok', 'done')],
    ['a denied call', failed('bash', ls, errorCodes.denied), status('declined', 'denied')],
    ['HTTP 200', fetch(200), status('ok', 'done')],
    ['HTTP 301 is not an error', fetch(301), status('ok', 'done')],
    ['HTTP 404 failed', fetch(404), status('error', 'failed')],
    ['HTTP 503 failed', fetch(503), status('error', 'failed')],
    [
      'sub-calls follow the same rules',
      asSubCall(succeeded('bash', ls, `a\n${exitMarker(2)}`)),
      status('error', 'failed'),
    ],
  ];
  it.each(cases)('%s', (_, block, expected) => {
    expect(deriveCard(block, posix).status).toEqual(expected);
  });

  it('gives the status of each sub-call card', () => {
    const parent = {
      ...succeeded('run_code', { code: 'x', description: 'd' }, 'ok'),
      subCalls: [asSubCall(succeeded('bash', ls, `a\n${exitMarker(1)}`))],
    };
    const card = deriveCard(parent, posix);
    expect(card.status).toEqual(status('ok', 'done'));
    expect(card.subCalls.map((sub) => sub.status)).toEqual([status('error', 'failed')]);
  });
});
