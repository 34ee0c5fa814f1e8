import { createConversation, type ConversationNode } from '@dsh/card-models';
import {
  assistantMessage,
  codeDispatch,
  codeDispatchStart,
  events,
  textChunks,
  toolCall,
  toolCallBlock,
  toolResult,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { findTool } from './conversation-helpers.js';

const t1 = { turn: 1 };
const blocksOf = (node: ConversationNode | undefined) =>
  node?.kind === 'assistant' ? node.blocks : [];

describe('createConversation() identity', () => {
  it('keeps unchanged nodes and blocks across an append and renews the changed chain', () => {
    const list = events([
      userMessage('hi'),
      assistantMessage(t1, [
        'two calls',
        toolCallBlock('c1', 'bash', {}),
        toolCallBlock('c2', 'read', {}),
      ]),
      toolCall('c1', 'bash', {}),
      toolCall('c2', 'read', {}),
      toolResult('c2', 'content'),
    ]);
    const conversation = createConversation();
    const before = conversation.apply({ kind: 'replace', events: list.slice(0, 4) });
    const after = conversation.apply({ kind: 'append', events: list.slice(4) });

    expect(after.nodes[0]).toBe(before.nodes[0]);
    expect(after.nodes[1]).not.toBe(before.nodes[1]);
    const [text0, c1Before, c2Before] = blocksOf(before.nodes[1]);
    const [text1, c1After, c2After] = blocksOf(after.nodes[1]);
    expect(text1).toBe(text0);
    expect(c1After).toBe(c1Before);
    expect(c2After).not.toBe(c2Before);
    expect(after.runningCalls[0]).toBe(before.runningCalls[0]);
    expect(after.runningCalls).toHaveLength(1);
  });

  it('path-copies a sub-call change: its siblings keep identity, its ancestors are renewed', () => {
    const list = events([
      assistantMessage(t1, [toolCallBlock('r', 'run_code', {})]),
      codeDispatchStart('r', 's1', 'read', {}),
      codeDispatchStart('r', 's2', 'read', {}),
      codeDispatchStart('s2', 's3', 'grep', {}),
      codeDispatch('s2', 's3', 'ok'),
    ]);
    const conversation = createConversation();
    const before = conversation.apply({ kind: 'replace', events: list.slice(0, 4) });
    const after = conversation.apply({ kind: 'append', events: list.slice(4) });
    expect(findTool(after, 's1')).toBe(findTool(before, 's1'));
    for (const id of ['s3', 's2', 'r']) expect(findTool(after, id)).not.toBe(findTool(before, id));
    expect(after.runningCalls[0]).toBe(findTool(after, 'r'));
  });

  it('keeps the nodes array and untouched partial blocks while chunks stream', () => {
    const chunks = events([
      userMessage('hi'),
      turnStart(1),
      ...textChunks(t1, 0, ['a', 'b']),
      ...textChunks(t1, 1, ['c', 'd']),
    ]);
    const conversation = createConversation();
    const first = conversation.apply({ kind: 'replace', events: chunks.slice(0, 8) });
    const next = conversation.apply({ kind: 'append', events: chunks.slice(8, 9) });
    expect(next.nodes).toBe(first.nodes);
    expect(next.partial?.blocks[0]).toBe(first.partial?.blocks[0]);
    expect(next.partial?.blocks[1]).not.toBe(first.partial?.blocks[1]);
  });

  it('keeps every unchanged node across a prepend and rebuilds only the healed orphan', () => {
    const list = events([
      userMessage('one'),
      assistantMessage(t1, ['calling', toolCallBlock('c1', 'bash', {})]),
      toolCall('c1', 'bash', {}),
      userMessage('two'),
      toolResult('c1', 'late'),
      userMessage('three'),
      assistantMessage({ turn: 2 }, [toolCallBlock('c2', 'read', {})]),
      toolCall('c2', 'read', {}),
      toolResult('c2', 'ok'),
    ]);
    const conversation = createConversation();
    const tail = conversation.apply({ kind: 'replace', events: list.slice(3) });
    const full = conversation.apply({ kind: 'prepend', events: list.slice(0, 3) });
    const bySeq = new Map(full.nodes.map((node) => [node.seq, node]));
    for (const node of tail.nodes) {
      if (node.kind === 'tool-result') expect(bySeq.has(node.seq)).toBe(false);
      else expect(bySeq.get(node.seq)).toBe(node);
    }
    expect(findTool(full, 'c2')).toBe(findTool(tail, 'c2'));
    expect(full.nodes.map((node) => node.seq)).toEqual([0, 1, 3, 5, 6]);
  });

  it('keeps identities after a prepend for later appends', () => {
    const list = events([
      userMessage('one'),
      assistantMessage(t1, [toolCallBlock('c1', 'bash', {}), toolCallBlock('c2', 'bash', {})]),
      toolCall('c1', 'bash', {}),
      toolCall('c2', 'bash', {}),
      toolResult('c1', 'ok'),
    ]);
    const conversation = createConversation();
    const tail = conversation.apply({ kind: 'replace', events: list.slice(2, 4) });
    const full = conversation.apply({ kind: 'prepend', events: list.slice(0, 2) });
    const next = conversation.apply({ kind: 'append', events: list.slice(4) });
    expect(tail.nodes).toHaveLength(2);
    expect(findTool(next, 'c2')).toBe(findTool(full, 'c2'));
    expect(next.nodes[0]).toBe(full.nodes[0]);
  });

  it('gives a replace of the same window the same objects', () => {
    const list = events([
      userMessage('a'),
      assistantMessage(t1, [toolCallBlock('c1', 'bash', {})]),
    ]);
    const conversation = createConversation();
    const first = conversation.apply({ kind: 'replace', events: list });
    const second = conversation.apply({ kind: 'replace', events: list });
    expect(second.nodes.every((node, i) => node === first.nodes[i])).toBe(true);
    expect(second.runningCalls).toBe(first.runningCalls);
  });

  it('never changes an earlier snapshot', () => {
    const conversation = createConversation();
    const list = events(
      Array.from({ length: 1500 }, (_, i) =>
        i % 3 === 0
          ? assistantMessage(t1, [toolCallBlock(`c${i}`, 'bash', {})])
          : toolResult(`c${i - 1}`, 'ok'),
      ),
    );
    const seen: { nodes: readonly ConversationNode[]; copy: ConversationNode[] }[] = [];
    for (let i = 0; i < list.length; i += 100) {
      const snapshot = conversation.apply({ kind: 'append', events: list.slice(i, i + 100) });
      seen.push({ nodes: snapshot.nodes, copy: [...snapshot.nodes] });
    }
    for (const { nodes, copy } of seen) {
      expect(nodes.length).toBe(copy.length);
      expect(nodes.every((node, i) => node === copy[i])).toBe(true);
    }
  });
});
