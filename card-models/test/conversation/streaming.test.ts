import { createConversation } from '@dsh/card-models';
import { interruptedMessage } from '@dsh/card-models/contract';
import {
  approvalRequested,
  approvalResolved,
  ApprovalDecision,
  assistantMessage,
  codeDispatchStart,
  events,
  questionRequested,
  questionResolved,
  textChunks,
  toolCall,
  toolCallBlock,
  toolCallChunks,
  toolResult,
  turnEnd,
  TurnEndReason,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assemble, findTool, kinds } from './conversation-helpers.js';

const t1 = { turn: 1 };
const ask = (id: string, name = 'bash') => assistantMessage(t1, [toolCallBlock(id, name, {})]);

describe('createConversation()', () => {
  describe('streaming and interruption', () => {
    it('accumulates chunks into the partial and swaps it for the message in one apply', () => {
      const conversation = createConversation();
      const streaming = conversation.apply({
        kind: 'append',
        events: events([
          turnStart(1),
          ...textChunks(t1, 0, ['Hel', 'lo']).slice(0, 3),
          ...toolCallChunks(t1, 1, { id: 'c1', name: 'bash', args: { command: 'ls' } }).slice(0, 2),
        ]),
      });
      expect(streaming.partial).toMatchObject({
        turn: 1,
        step: 0,
        seq: 1,
        blocks: [
          { kind: 'text', text: 'Hello' },
          { kind: 'tool-call', callId: 'c1', tool: { name: 'bash', status: 'running' } },
        ],
      });
      const final = conversation.apply({
        kind: 'append',
        events: events([assistantMessage(t1, ['Hello', toolCallBlock('c1', 'bash', {})])], 6),
      });
      expect(final.partial).toBeUndefined();
      expect(kinds(final)).toEqual(['assistant']);
    });

    it.each<{ name: string; tail: Payload[]; kinds: string[]; c1: string }>([
      {
        name: 'a non-empty partial is frozen and open calls stop',
        tail: [...textChunks({ turn: 1, step: 1 }, 0, ['Hel', 'lo']).slice(0, 3)],
        kinds: ['user', 'assistant', 'assistant', 'turn-end'],
        c1: 'stopped',
      },
      {
        name: 'an empty partial is dropped',
        tail: textChunks({ turn: 1, step: 1 }, 0, ['x']).slice(0, 1),
        kinds: ['user', 'assistant', 'turn-end'],
        c1: 'stopped',
      },
      {
        name: 'a call with a result keeps it',
        tail: [toolResult('c1', 'done')],
        kinds: ['user', 'assistant', 'turn-end'],
        c1: 'ok',
      },
    ])('turn/end(cancelled): $name', ({ tail, kinds: expected, c1 }) => {
      const snapshot = assemble([
        userMessage('go'),
        turnStart(1),
        ask('c1', 'run_code'),
        toolCall('c1', 'run_code', {}),
        codeDispatchStart('c1', 's1', 'read', {}),
        ...tail,
        turnEnd(1, TurnEndReason.CANCELLED),
      ]);
      expect(kinds(snapshot)).toEqual(expected);
      expect(snapshot.partial).toBeUndefined();
      expect(snapshot.runningCalls).toEqual([]);
      expect(findTool(snapshot, 'c1')?.status).toBe(c1);
      if (c1 === 'stopped') {
        expect(findTool(snapshot, 'c1')?.result?.error).toMatchObject({
          name: 'Interrupted',
          code: 'interrupted',
          message: interruptedMessage,
        });
        expect(findTool(snapshot, 's1')?.status).toBe('stopped');
      }
      const frozen = snapshot.nodes[2];
      if (expected.length === 4) {
        expect(frozen).toMatchObject({ kind: 'assistant', interrupted: true, step: 1 });
        expect(frozen?.kind === 'assistant' && frozen.blocks).toEqual([
          { kind: 'text', text: 'Hello' },
        ]);
      }
    });

    it('stops a tool call that was still streaming when the turn was cancelled', () => {
      const snapshot = assemble([
        turnStart(1),
        ...toolCallChunks(t1, 0, { id: 'c9', name: 'bash', args: { command: 'ls' } }).slice(0, 2),
        turnEnd(1, TurnEndReason.CANCELLED),
      ]);
      expect(kinds(snapshot)).toEqual(['assistant', 'turn-end']);
      expect(findTool(snapshot, 'c9')).toMatchObject({ name: 'bash', status: 'stopped' });
    });

    it('leaves calls of a completed turn as recorded', () => {
      const snapshot = assemble([ask('c1'), toolCall('c1', 'bash', {}), turnEnd(1)]);
      expect(findTool(snapshot, 'c1')?.status).toBe('running');
    });
  });

  describe('pending approvals and questions', () => {
    const q = [{ question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] }];
    it.each<{ name: string; payloads: Payload[]; pending: string[] }>([
      {
        name: 'approval requested',
        payloads: [approvalRequested('a1', 'c1', 'bash', 'runs a command')],
        pending: ['approval:a1'],
      },
      {
        name: 'approval resolved',
        payloads: [
          approvalRequested('a1', 'c1', 'bash', 'r'),
          approvalRequested('a2', 'c2', 'bash', 'r'),
          approvalResolved('a1', ApprovalDecision.ALLOW),
        ],
        pending: ['approval:a2'],
      },
      {
        name: 'question requested',
        payloads: [questionRequested('q1', 'c1', q)],
        pending: ['question:q1'],
      },
      {
        name: 'question resolved',
        payloads: [questionRequested('q1', 'c1', q), questionResolved('q1', [['a']])],
        pending: [],
      },
      {
        name: 'closed by the end of the turn',
        payloads: [
          approvalRequested('a1', 'c1', 'bash', 'r'),
          questionRequested('q1', 'c2', q),
          turnEnd(1, TurnEndReason.CANCELLED),
        ],
        pending: [],
      },
    ])('$name', ({ payloads, pending }) => {
      const snapshot = assemble(payloads);
      expect(
        snapshot.pending.map((item) =>
          item.kind === 'approval' ? `approval:${item.approvalId}` : `question:${item.questionId}`,
        ),
      ).toEqual(pending);
    });

    it('keeps the answers of resolved questions', () => {
      const snapshot = assemble([
        questionRequested('q1', 'c1', q),
        questionResolved('q1', [['b']]),
      ]);
      expect(snapshot.resolvedQuestions.get('q1')?.answers[0]?.values).toEqual(['b']);
      expect(snapshot.pending).toEqual([]);
    });

    it('carries the request fields', () => {
      const snapshot = assemble([approvalRequested('a1', 'c1', 'bash', 'runs a command')]);
      expect(snapshot.pending[0]).toEqual({
        kind: 'approval',
        seq: 0,
        approvalId: 'a1',
        callId: 'c1',
        toolName: 'bash',
        reason: 'runs a command',
      });
    });
  });
});
