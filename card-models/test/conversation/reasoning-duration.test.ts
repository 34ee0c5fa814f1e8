import {
  assistantMessage,
  events,
  reasoning,
  reasoningChunks,
  textChunks,
  toolCallBlock,
  turnStart,
  userMessage,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assemble } from './conversation-helpers.js';
import { createConversation } from '@dsh/card-models';

const t1 = { turn: 1 };

/** The reasoning blocks of the last assistant node: text and duration. */
function reasoningOf(snapshot: ReturnType<typeof assemble>) {
  const node = snapshot.nodes.findLast((n) => n.kind === 'assistant');
  if (node?.kind !== 'assistant') return [];
  return node.blocks.flatMap((b) =>
    b.kind === 'reasoning' ? [{ text: b.text, durationMs: b.durationMs }] : [],
  );
}

describe('reasoning durations', () => {
  it.each([
    {
      why: 'from its first chunk to its block end (events 1 s apart)',
      payloads: [
        turnStart(1),
        userMessage('Think'),
        ...reasoningChunks(t1, 0, ['Let me ', 'think.']),
        ...textChunks(t1, 1, ['Done.']),
        assistantMessage(t1, [reasoning('Let me think.'), 'Done.']),
      ],
      // blockStart at seq 2, two deltas, blockEnd at seq 5: 3 s.
      want: [{ text: 'Let me think.', durationMs: 3_000 }],
    },
    {
      why: 'none when the step did not stream (an import)',
      payloads: [
        turnStart(1),
        userMessage('Think'),
        assistantMessage(t1, [reasoning('Quietly.'), toolCallBlock('c1', 'bash', {})]),
      ],
      want: [{ text: 'Quietly.', durationMs: undefined }],
    },
  ])('$why', ({ payloads, want }) => {
    expect(reasoningOf(assemble(payloads))).toEqual(want);
  });

  it('is the same whether the events come at once or one by one', () => {
    const list = events([
      turnStart(1),
      userMessage('Think'),
      ...reasoningChunks(t1, 0, ['a', 'b', 'c']),
      assistantMessage(t1, [reasoning('abc')]),
    ]);
    const live = createConversation();
    let snapshot = live.apply({ kind: 'replace', events: [] });
    for (const event of list) snapshot = live.apply({ kind: 'append', events: [event] });
    expect(reasoningOf(snapshot)).toEqual([{ text: 'abc', durationMs: 4_000 }]);
  });
});
