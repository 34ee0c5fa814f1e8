import { createConversation } from '@dsh/card-models';
import {
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  toolCall,
  toolCallBlock,
  toolResult,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assemble, findTool, kinds, outline, shownTools } from './conversation-helpers.js';

const t1 = { turn: 1 };
const ask = (id: string, name = 'bash') => assistantMessage(t1, [toolCallBlock(id, name, {})]);

describe('createConversation()', () => {
  describe('tool call pairing', () => {
    it.each<{ name: string; payloads: Payload[]; status: string; running: number }>([
      { name: 'requested only', payloads: [ask('c1')], status: 'running', running: 1 },
      {
        name: 'called, no result',
        payloads: [ask('c1'), toolCall('c1', 'bash', { command: 'ls' })],
        status: 'running',
        running: 1,
      },
      {
        name: 'ok result',
        payloads: [ask('c1'), toolCall('c1', 'bash', {}), toolResult('c1', 'out')],
        status: 'ok',
        running: 0,
      },
      {
        name: 'error result',
        payloads: [
          ask('c1'),
          toolCall('c1', 'bash', {}),
          toolResult('c1', 'no', { error: { code: 'denied', message: 'no' } }),
        ],
        status: 'error',
        running: 0,
      },
    ])('$name -> $status', ({ payloads, status, running }) => {
      const snapshot = assemble(payloads);
      const tool = findTool(snapshot, 'c1');
      expect(tool?.status).toBe(status);
      expect(snapshot.runningCalls).toHaveLength(running);
      if (running > 0) expect(snapshot.runningCalls[0]).toBe(shownTools(snapshot)[0]);
    });

    it('takes the head from tool/call and the result by call id', () => {
      const snapshot = assemble([
        ask('c1'),
        ask('c2'),
        toolCall('c2', 'bash', { command: 'pwd' }),
        toolCall('c1', 'bash', { command: 'ls' }),
        toolResult('c1', 'files', { meta: { m: 1 } }),
      ]);
      expect(findTool(snapshot, 'c1')).toMatchObject({
        name: 'bash',
        argsRaw: '{"command":"ls"}',
        seq: 3,
        call: { seq: 3 },
        status: 'ok',
        result: { metaJson: '{"m":1}', seq: 4, isError: false },
      });
      expect(snapshot.runningCalls.map((tool) => tool.callId)).toEqual(['c2']);
    });

    it('shows an orphan result with call null and heals it when an older page brings the head', () => {
      const list = events([ask('c1'), toolCall('c1', 'bash', {}), toolResult('c1', 'out')]);
      const conversation = createConversation();
      const orphan = conversation.apply({ kind: 'replace', events: list.slice(2) });
      expect(orphan.nodes[0]).toMatchObject({
        kind: 'tool-result',
        tool: {
          callId: 'c1',
          name: '',
          argsRaw: '',
          call: null,
          startTime: undefined,
          status: 'ok',
        },
      });
      const healed = conversation.apply({ kind: 'prepend', events: list.slice(0, 2) });
      expect(kinds(healed)).toEqual(['assistant']);
      expect(findTool(healed, 'c1')).toMatchObject({
        name: 'bash',
        call: { seq: 1 },
        status: 'ok',
      });
    });
  });

  describe('code-dispatch sub-calls', () => {
    const runCode = [ask('r', 'run_code'), toolCall('r', 'run_code', { code: '...' })];

    it.each<{ name: string; payloads: Payload[]; outline: string[] }>([
      {
        name: 'two levels, all running',
        payloads: [
          ...runCode,
          codeDispatchStart('r', 's1', 'read', {}),
          codeDispatchStart('s1', 's2', 'grep', {}),
          codeDispatchStart('r', 's3', 'glob', {}),
        ],
        outline: [
          'r:run_code:running',
          '  s1:read:running',
          '    s2:grep:running',
          '  s3:glob:running',
        ],
      },
      {
        name: 'settled children and parent',
        payloads: [
          ...runCode,
          codeDispatchStart('r', 's1', 'read', {}),
          codeDispatchStart('s1', 's2', 'grep', {}),
          codeDispatch('s1', 's2', 'm', { code: 'not_found', message: 'x' }),
          codeDispatch('r', 's1', 'ok'),
          toolResult('r', 'done'),
        ],
        outline: ['r:run_code:ok', '  s1:read:ok', '    s2:grep:error'],
      },
      {
        name: 'a callId that would be its own ancestor is ignored',
        payloads: [
          ...runCode,
          codeDispatchStart('r', 's1', 'read', {}),
          codeDispatchStart('s1', 'r', 'x', {}),
        ],
        outline: ['r:run_code:running', '  s1:read:running'],
      },
      {
        name: 'a self-parented or duplicate sub-call is ignored',
        payloads: [
          ...runCode,
          codeDispatchStart('r', 's1', 'read', {}),
          codeDispatchStart('s1', 's1', 'x', {}),
          codeDispatchStart('r', 's1', 'dup', {}),
        ],
        outline: ['r:run_code:running', '  s1:read:running'],
      },
      {
        name: 'a loop among calls waiting for a parent is ignored',
        payloads: [
          codeDispatchStart('x', 'a', 'read', {}),
          codeDispatchStart('a', 'x', 'grep', {}),
          ...runCode,
          codeDispatchStart('r', 'x', 'glob', {}),
        ],
        outline: ['r:run_code:running', '  x:glob:running', '    a:read:running'],
      },
    ])('$name', ({ payloads, outline: expected }) => {
      const snapshot = assemble(payloads);
      expect(outline(findTool(snapshot, 'r'))).toEqual(expected);
      expect(shownTools(snapshot).map((tool) => tool.callId)).toEqual(['r']);
      expect(snapshot.runningCalls.every((tool) => tool.parentCallId === undefined)).toBe(true);
    });

    it('gives sub-calls the parent turn, the start time and no meta', () => {
      const snapshot = assemble([
        assistantMessage({ turn: 3, step: 2 }, [toolCallBlock('r', 'run_code', {})]),
        codeDispatchStart('r', 's1', 'read', { p: 1 }),
        codeDispatch('r', 's1', 'text'),
      ]);
      expect(findTool(snapshot, 's1')).toMatchObject({
        parentCallId: 'r',
        turn: 3,
        step: 2,
        seq: 1,
        argsRaw: '{"p":1}',
        call: { seq: 1 },
        result: { seq: 2, metaJson: '' },
      });
    });

    it('holds sub-calls whose parent is older until a prepend brings it', () => {
      const list = events([
        ...runCode,
        codeDispatchStart('r', 's1', 'read', {}),
        codeDispatch('r', 's1', 'ok'),
        toolResult('r', 'done'),
      ]);
      const conversation = createConversation();
      const tail = conversation.apply({ kind: 'replace', events: list.slice(2) });
      expect(outline(findTool(tail, 'r'))).toEqual(['r::ok', '  s1:read:ok']);
      const full = conversation.apply({ kind: 'prepend', events: list.slice(0, 2) });
      expect(outline(findTool(full, 'r'))).toEqual(['r:run_code:ok', '  s1:read:ok']);
    });
  });
});
