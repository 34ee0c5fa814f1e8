import { createConversation } from '@dsh/card-models';
import { errorCodes, interruptedMessage } from '@dsh/card-models/contract';
import {
  assistantMessage,
  chunk,
  codeDispatch,
  codeDispatchStart,
  events,
  textChunks,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { BlockType } from '@dsh/gen/content';
import { TurnEndReason } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import {
  assembleLive,
  assemblePaged,
  findTool,
  kinds,
  outline,
  shownTools,
} from './conversation-helpers.js';

const t1 = { turn: 1 };
const interrupted = {
  name: 'Interrupted',
  code: errorCodes.interrupted,
  message: interruptedMessage,
};
const cancelled = turnEnd(1, TurnEndReason.CANCELLED);
const ask = (id: string, name = 'bash') => assistantMessage(t1, [toolCallBlock(id, name, {})]);

/** The snapshot of `payloads` folded at once, and the same checked one by one and paged. */
function fold(payloads: Payload[]) {
  const list = events(payloads);
  const whole = createConversation().apply({ kind: 'replace', events: list });
  expect(assembleLive(list)).toEqual(whole);
  expect(assemblePaged(list, 2)).toEqual(whole);
  return whole;
}

function toolStart(index: number): Payload {
  return chunk(t1, {
    case: 'blockStart',
    value: { $typeName: 'dsh.session.v1.BlockStart', index, blockType: BlockType.TOOL_CALL },
  });
}

function toolDelta(index: number, id: string, name: string | undefined, args = ''): Payload {
  return chunk(t1, {
    case: 'toolCallDelta',
    value: {
      $typeName: 'dsh.session.v1.ToolCallDelta',
      index,
      id,
      ...(name === undefined ? {} : { name }),
      argumentsDelta: args,
    },
  });
}

describe('createConversation() stop', () => {
  describe('one Stop gives one status, whichever event recorded it', () => {
    it.each<{ name: string; payloads: Payload[] }>([
      {
        name: 'the host wrote an interrupted result',
        payloads: [
          turnStart(1),
          ask('c1'),
          toolCall('c1', 'bash', { command: 'sleep 9' }),
          toolResult('c1', interruptedMessage, { error: interrupted }),
          cancelled,
        ],
      },
      {
        name: 'turn/end(cancelled) froze the open call',
        payloads: [
          turnStart(1),
          ask('c1'),
          toolCall('c1', 'bash', { command: 'sleep 9' }),
          cancelled,
        ],
      },
      {
        name: 'an interrupted result without any turn end',
        payloads: [
          ask('c1'),
          toolCall('c1', 'bash', { command: 'sleep 9' }),
          toolResult('c1', 'partial output\n[killed by signal: SIGTERM]', { error: interrupted }),
        ],
      },
    ])('$name -> stopped', ({ payloads }) => {
      const snapshot = fold(payloads);
      expect(findTool(snapshot, 'c1')?.status).toBe('stopped');
      expect(findTool(snapshot, 'c1')?.result?.error?.code).toBe(errorCodes.interrupted);
      expect(snapshot.runningCalls).toEqual([]);
    });

    it('keeps other errors as errors and stops interrupted sub-calls', () => {
      const snapshot = fold([
        ask('p1', 'run_code'),
        toolCall('p1', 'run_code', { code: 'x', description: 'd' }),
        codeDispatchStart('p1', 's1', 'bash', { command: 'a' }),
        codeDispatch('p1', 's1', '', interrupted),
        codeDispatchStart('p1', 's2', 'bash', { command: 'b' }),
        codeDispatch('p1', 's2', 'no', { code: 'denied', message: 'no' }),
        toolResult('p1', interruptedMessage, { error: interrupted }),
      ]);
      expect(outline(findTool(snapshot, 'p1'))).toEqual([
        'p1:run_code:stopped',
        '  s1:bash:stopped',
        '  s2:bash:error',
      ]);
    });
  });

  describe('no empty tool block', () => {
    it.each<{ name: string; stream: Payload[]; shown: string[] }>([
      { name: 'a started block', stream: [toolStart(1)], shown: [] },
      {
        name: 'an id without a name',
        stream: [toolStart(1), toolDelta(1, 'c1', undefined)],
        shown: [],
      },
      { name: 'a name without an id', stream: [toolStart(1), toolDelta(1, '', 'bash')], shown: [] },
      {
        name: 'an id and a name',
        stream: [toolStart(1), toolDelta(1, 'c1', 'bash', '{"comm')],
        shown: ['c1:bash'],
      },
      {
        name: 'an id, then the name in a later delta',
        stream: [toolStart(1), toolDelta(1, 'c1', undefined), toolDelta(1, 'c1', 'bash')],
        shown: ['c1:bash'],
      },
    ])('stopped mid-stream at $name: shows $shown', ({ stream, shown }) => {
      const head = [userMessage('go'), turnStart(1), ...textChunks(t1, 0, ['Looking.'])];
      const live = fold([...head, ...stream]);
      const partialTools = (live.partial?.blocks ?? []).flatMap((block) =>
        block.kind === 'tool-call' ? [`${block.callId}:${block.tool.name}`] : [],
      );
      expect(partialTools).toEqual(shown);
      expect(live.partial?.blocks.map((block) => block.kind)).toEqual([
        'text',
        ...shown.map(() => 'tool-call'),
      ]);

      const stopped = fold([...head, ...stream, cancelled]);
      expect(kinds(stopped)).toEqual(['user', 'assistant', 'turn-end']);
      expect(
        shownTools(stopped).map((tool) => `${tool.callId}:${tool.name}:${tool.status}`),
      ).toEqual(shown.map((call) => `${call}:stopped`));
      expect(stopped.partial).toBeUndefined();
      expect(findTool(stopped, '')).toBeUndefined();
    });

    it('drops a partial that holds only an incomplete tool block', () => {
      const snapshot = fold([
        turnStart(1),
        toolStart(0),
        toolDelta(0, '', undefined, '{'),
        cancelled,
      ]);
      expect(kinds(snapshot)).toEqual(['turn-end']);
    });

    it('shows no tool block with neither an id nor a name in a final message', () => {
      const snapshot = fold([
        assistantMessage(t1, [
          'text first',
          toolCallBlock('', '', {}),
          toolCallBlock('c2', 'bash', {}),
        ]),
      ]);
      expect(shownTools(snapshot).map((tool) => tool.callId)).toEqual(['c2']);
    });
  });
});
