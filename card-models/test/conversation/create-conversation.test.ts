import { createConversation } from '@dsh/card-models';
import {
  agentError,
  approvalRequested,
  assistantMessage,
  codeDispatchStart,
  contextMessage,
  events,
  extension,
  reasoning,
  steeringMessage,
  text,
  textChunks,
  toolCall,
  toolCallBlock,
  toolResult,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assemble, kinds } from './conversation-helpers.js';

const t1 = { turn: 1 };
const ask = (id: string, name = 'bash') => assistantMessage(t1, [toolCallBlock(id, name, {})]);

describe('createConversation()', () => {
  describe('openTurn', () => {
    it.each<{ name: string; payloads: Payload[]; turn: number | undefined }>([
      { name: 'none before a turn starts', payloads: [userMessage('hi')], turn: undefined },
      { name: 'a running turn', payloads: [userMessage('hi'), turnStart(1)], turn: 1 },
      { name: 'an ended turn', payloads: [turnStart(1), turnEnd(1)], turn: undefined },
      { name: 'the next turn', payloads: [turnStart(1), turnEnd(1), turnStart(2)], turn: 2 },
      { name: 'an end of an older turn', payloads: [turnStart(2), turnEnd(1)], turn: 2 },
      {
        name: 'a start older than the window',
        payloads: [assistantMessage(t1, ['x'])],
        turn: undefined,
      },
    ])('$name', ({ payloads, turn }) => {
      expect(assemble(payloads).openTurn?.turn).toBe(turn);
    });

    it('names the turn/start event and keeps the object while the turn runs', () => {
      const conversation = createConversation();
      const list = events([userMessage('hi'), turnStart(1), assistantMessage(t1, ['a'])]);
      conversation.apply({ kind: 'append', events: list.slice(0, 2) });
      const open = conversation.snapshot.openTurn;
      expect(open).toMatchObject({ turn: 1, seq: 1 });
      conversation.apply({ kind: 'append', events: list.slice(2) });
      expect(conversation.snapshot.openTurn).toBe(open);
      conversation.apply({ kind: 'replace', events: list });
      expect(conversation.snapshot.openTurn).toBe(open);
    });
  });

  describe('nodes in surface order', () => {
    it.each<{ name: string; payloads: Payload[]; kinds: string[] }>([
      {
        name: 'a plain turn',
        payloads: [userMessage('hi'), turnStart(1), assistantMessage(t1, ['hello']), turnEnd(1)],
        kinds: ['user', 'assistant', 'turn-end'],
      },
      {
        name: 'steering, context and agent errors',
        payloads: [
          contextMessage('env', 'host', 'env', { a: 1 }),
          steeringMessage(1, 'faster'),
          agentError('provider down', 'provider_unavailable'),
        ],
        kinds: ['context', 'steering', 'agent-error'],
      },
      {
        name: 'an extension event',
        payloads: [extension('plugin/note', { note: 'x' })],
        kinds: ['unknown'],
      },
      {
        name: 'events that only feed partial, pending or sub-calls',
        payloads: [
          turnStart(1),
          ...textChunks(t1, 0, ['a']),
          approvalRequested('a1', 'c1', 'bash', 'runs'),
          codeDispatchStart('r', 's', 'read', {}),
        ],
        kinds: [],
      },
      {
        name: 'a tool call inside its assistant message',
        payloads: [ask('c1'), toolCall('c1', 'bash', {}), toolResult('c1', 'ok')],
        kinds: ['assistant'],
      },
      {
        name: 'a tool call whose assistant message is not in the window',
        payloads: [toolCall('c1', 'bash', {}), toolResult('c1', 'ok')],
        kinds: ['tool-result'],
      },
      {
        name: 'an orphan result',
        payloads: [toolResult('c1', 'ok'), userMessage('next')],
        kinds: ['tool-result', 'user'],
      },
    ])('$name', ({ payloads, kinds: expected }) => {
      expect(kinds(assemble(payloads))).toEqual(expected);
    });

    it('keeps every field of an extension and a context message', () => {
      const snapshot = assemble([
        extension('plugin/note', { note: 'x' }),
        contextMessage('env', 'host', 'env', { a: 1 }),
      ]);
      expect(snapshot.nodes[0]).toMatchObject({
        kind: 'unknown',
        seq: 0,
        type: 'plugin/note',
        dataJson: '{"note":"x"}',
      });
      expect(snapshot.nodes[1]).toMatchObject({
        kind: 'context',
        envelope: 'env',
        metaJson: '{"a":1}',
      });
    });

    it('splits assistant content into text, reasoning and tool-call blocks', () => {
      const snapshot = assemble([
        assistantMessage(t1, [reasoning('think'), 'say', toolCallBlock('c1', 'read', { p: 1 })]),
      ]);
      const node = snapshot.nodes[0];
      expect(node?.kind === 'assistant' && node.blocks.map((b) => b.kind)).toEqual([
        'reasoning',
        'text',
        'tool-call',
      ]);
    });
  });

  describe('window changes', () => {
    const list = events(
      [userMessage('a'), userMessage('b'), userMessage('c'), userMessage('d')],
      10,
    );

    it.each<{
      name: string;
      setup: number[];
      change: 'append' | 'prepend' | 'replace';
      seqs: number[];
      code: string;
    }>([
      { name: 'append with a gap', setup: [10, 11], change: 'append', seqs: [13], code: 'gap' },
      {
        name: 'append out of order',
        setup: [10],
        change: 'append',
        seqs: [11, 13],
        code: 'not-contiguous',
      },
      {
        name: 'replace out of order',
        setup: [],
        change: 'replace',
        seqs: [12, 11],
        code: 'not-contiguous',
      },
      {
        name: 'prepend not adjacent',
        setup: [12, 13],
        change: 'prepend',
        seqs: [10],
        code: 'not-adjacent',
      },
      {
        name: 'prepend overlapping',
        setup: [12, 13],
        change: 'prepend',
        seqs: [11, 12],
        code: 'not-adjacent',
      },
    ])('rejects $name and keeps the window', ({ setup, change, seqs, code }) => {
      const conversation = createConversation();
      const pick = (s: number[]) => s.map((seq) => list[seq - 10]!);
      const before = conversation.apply({ kind: 'replace', events: pick(setup) });
      const result = conversation.tryApply({ kind: change, events: pick(seqs) });
      expect(result.ok).toBe(false);
      expect(!result.ok && result.error.code).toBe(code);
      expect(!result.ok && result.error.message).toMatch(/\d/);
      expect(result.snapshot).toBe(before);
      expect(conversation.apply({ kind: change, events: pick(seqs) })).toBe(before);
    });

    it.each<{
      name: string;
      setup: number[];
      change: 'append' | 'prepend';
      seqs: number[];
      window: [number, number];
      texts: string[];
    }>([
      {
        name: 'append overlapping the end',
        setup: [10, 11],
        change: 'append',
        seqs: [11, 12],
        window: [10, 13],
        texts: ['a', 'b', 'c'],
      },
      {
        name: 'append to an empty window',
        setup: [],
        change: 'append',
        seqs: [12, 13],
        window: [12, 14],
        texts: ['c', 'd'],
      },
      {
        name: 'prepend right before',
        setup: [12, 13],
        change: 'prepend',
        seqs: [10, 11],
        window: [10, 14],
        texts: ['a', 'b', 'c', 'd'],
      },
    ])('accepts $name', ({ setup, change, seqs, window, texts }) => {
      const conversation = createConversation();
      const pick = (s: number[]) => s.map((seq) => list[seq - 10]!);
      conversation.apply({ kind: 'replace', events: pick(setup) });
      const snapshot = conversation.apply({ kind: change, events: pick(seqs) });
      expect([snapshot.firstSeq, snapshot.endSeq]).toEqual(window);
      expect(
        snapshot.nodes.map((node) => (node.kind === 'user' ? node.content[0] : undefined)),
      ).toEqual(texts.map(text));
    });

    it('returns the same snapshot for an append of already-seen events', () => {
      const conversation = createConversation();
      const before = conversation.apply({ kind: 'replace', events: list });
      expect(conversation.apply({ kind: 'append', events: list.slice(1) })).toBe(before);
    });

    it('starts empty', () => {
      expect(createConversation().snapshot).toEqual({
        firstSeq: 0,
        endSeq: 0,
        nodes: [],
        partial: undefined,
        runningCalls: [],
        pending: [],
        resolvedQuestions: new Map(),
        openTurn: undefined,
        queueLog: [],
      });
    });
  });
});
