import { create } from '@bufbuild/protobuf';
import { ContentBlockSchema } from '@dsh/gen/content';
import { UnqueueReason } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { createConversation, waitingInputs, type WaitingInput } from '../../src/index.js';
import { events, userMessage } from '@dsh/fixtures';

const text = (value: string) =>
  create(ContentBlockSchema, { block: { case: 'text', value: { text: value } } });
const queued = (queueId: string, value: string, steer = false) => ({
  case: 'inputQueued' as const,
  value: {
    $typeName: 'dsh.session.v1.InputQueued' as const,
    queueId,
    content: [text(value)],
    steer,
  },
});
const unqueued = (queueId: string, reason: UnqueueReason) => ({
  case: 'inputUnqueued' as const,
  value: { $typeName: 'dsh.session.v1.InputUnqueued' as const, queueId, reason },
});
const texts = (inputs: readonly WaitingInput[]) =>
  inputs.map(
    (i) =>
      `${i.queueId}:${i.content[0]?.block.value && 'text' in i.content[0].block.value ? i.content[0].block.value.text : ''}`,
  );

describe('waitingInputs()', () => {
  const window = events([
    userMessage('first'),
    queued('q-a', 'a'),
    queued('q-b', 'b', true),
    queued('q-a', 'a2'),
    unqueued('q-b', UnqueueReason.STEERED),
    queued('q-c', 'c'),
  ]);
  const snapshot = () => {
    const conversation = createConversation();
    conversation.apply({ kind: 'replace', events: window });
    return conversation.snapshot;
  };

  it.each<[string, WaitingInput[] | undefined, number, string[]]>([
    ['no baseline: the window alone', undefined, 0, ['q-a:a2', 'q-c:c']],
    [
      'a baseline input the window later starts',
      [{ queueId: 'q-0', content: [text('zero')], steer: false, seq: 0 }],
      0,
      ['q-0:zero', 'q-a:a2', 'q-c:c'],
    ],
    [
      'changes before the baseline seq are already in it',
      [{ queueId: 'q-a', content: [text('a2')], steer: false, seq: 1 }],
      4,
      ['q-a:a2', 'q-c:c'],
    ],
  ])('%s', (_name, baseline, seq, expected) => {
    expect(texts(waitingInputs(baseline, seq, snapshot().queueLog))).toEqual(expected);
  });

  it('logs queue changes in seq order and keeps the log while they do not change', () => {
    const conversation = createConversation();
    conversation.apply({ kind: 'replace', events: window });
    const log = conversation.snapshot.queueLog;
    expect(log.map((c) => `${c.kind}:${c.queueId}`)).toEqual([
      'queued:q-a',
      'queued:q-b',
      'queued:q-a',
      'unqueued:q-b',
      'queued:q-c',
    ]);
    conversation.apply({ kind: 'append', events: events([userMessage('more')], window.length) });
    expect(conversation.snapshot.queueLog).toBe(log);
  });
});
