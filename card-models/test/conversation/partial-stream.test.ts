import { createConversation, type ConversationSnapshot } from '@dsh/card-models';
import {
  chunk,
  events,
  finishChunk,
  reasoningChunks,
  textChunks,
  toolCallChunks,
  turnStart,
  usage,
  usageChunk,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';

const t1 = { turn: 1 };

/** What a reader sees of a partial: each block as `kind:text` (tool calls: their arguments). */
function partialText(snapshot: ConversationSnapshot): string[] | undefined {
  return snapshot.partial?.blocks.map((block) =>
    block.kind === 'tool-call' ? `tool:${block.tool.argsRaw}` : `${block.kind}:${block.text}`,
  );
}

function textDelta(index: number, text: string): Payload {
  return chunk(t1, {
    case: 'textDelta',
    value: { $typeName: 'dsh.session.v1.TextDelta', index, text },
  });
}

function reasoningDelta(index: number, text: string): Payload {
  return chunk(t1, {
    case: 'reasoningDelta',
    value: { $typeName: 'dsh.session.v1.ReasoningDelta', index, text },
  });
}

describe('createConversation() partial', () => {
  it('never changes the partial of an earlier snapshot while chunks stream one by one', () => {
    const list = events([
      userMessage('hi'),
      turnStart(1),
      ...reasoningChunks(t1, 0, ['think ', 'more']),
      ...textChunks(t1, 2, ['a', 'b', 'c']),
      ...toolCallChunks(t1, 1, { id: 'c1', name: 'bash', args: { command: 'ls -la' } }, 3),
      textDelta(2, 'd'),
    ]);
    const conversation = createConversation();
    const seen = list.map((event) => {
      const snapshot = conversation.apply({ kind: 'append', events: [event] });
      return { snapshot, text: partialText(snapshot), blocks: snapshot.partial?.blocks.slice() };
    });
    for (const { snapshot, text, blocks } of seen) {
      expect(partialText(snapshot)).toEqual(text);
      expect(snapshot.partial?.blocks).toEqual(blocks);
    }
    expect(seen.at(-1)?.text).toEqual([
      'reasoning:think more',
      'tool:{"command":"ls -la"}',
      'text:abcd',
    ]);
  });

  it.each([
    { name: 'a usage chunk', extra: usageChunk(t1, usage(10, 2)) },
    { name: 'a finish chunk', extra: finishChunk(t1, 'stop') },
    { name: 'an empty text delta', extra: textDelta(0, '') },
    { name: 'a delta of the wrong kind', extra: reasoningDelta(0, 'x') },
  ])('keeps the partial object for $name', ({ extra }) => {
    const list = events([turnStart(1), ...textChunks(t1, 0, ['a', 'b']).slice(0, 3), extra]);
    const conversation = createConversation();
    const before = conversation.apply({ kind: 'append', events: list.slice(0, -1) });
    const after = conversation.apply({ kind: 'append', events: list.slice(-1) });
    expect(after).not.toBe(before);
    expect(after.partial).toBe(before.partial);
  });

  it('creates the block of a delta that was never started and keeps the others', () => {
    const list = events([turnStart(1), ...textChunks(t1, 0, ['a', 'b']).slice(0, 3)]);
    const conversation = createConversation();
    const before = conversation.apply({ kind: 'append', events: list });
    const after = conversation.apply({ kind: 'append', events: events([textDelta(5, '')], 4) });
    expect(partialText(after)).toEqual(['text:ab', 'text:']);
    expect(after.partial?.blocks[0]).toBe(before.partial?.blocks[0]);
  });

  it('keeps a streamed text block when its block-end carries the same text', () => {
    const list = events([turnStart(1), ...textChunks(t1, 0, ['a', 'b'])]);
    const conversation = createConversation();
    const before = conversation.apply({ kind: 'append', events: list.slice(0, -1) });
    const after = conversation.apply({ kind: 'append', events: list.slice(-1) });
    expect(after.partial).toBe(before.partial);
  });

  it('keeps untouched partial blocks across a rebuild and the chunks after it', () => {
    const list = events([
      turnStart(1),
      ...textChunks(t1, 0, ['a', 'b']),
      ...textChunks(t1, 1, ['c', 'd']).slice(0, 2),
      textDelta(1, 'e'),
    ]);
    const conversation = createConversation();
    const first = conversation.apply({ kind: 'replace', events: list.slice(0, -1) });
    const rebuilt = conversation.apply({ kind: 'replace', events: list.slice(0, -1) });
    expect(rebuilt.partial).toBe(first.partial);
    const next = conversation.apply({ kind: 'append', events: list.slice(-1) });
    expect(partialText(next)).toEqual(['text:ab', 'text:ce']);
    expect(next.partial?.blocks[0]).toBe(first.partial?.blocks[0]);
  });

  it('gives every snapshot nodes as an own enumerable array, equal to a plain object', () => {
    const snapshot = createConversation().apply({
      kind: 'append',
      events: events([userMessage('hi')]),
    });
    expect(Object.keys(snapshot)).toContain('nodes');
    expect(Array.isArray(snapshot.nodes)).toBe(true);
    expect(snapshot.nodes).toBe(snapshot.nodes);
    expect({ ...snapshot }).toEqual(snapshot);
    expect({ ...snapshot }.nodes).toBe(snapshot.nodes);
  });
});
