import { createConversation } from '@dsh/card-models';
import {
  assistantMessage,
  events,
  questionRequested,
  questionResolved,
  toolCall,
  toolCallBlock,
  toolResult,
  type Payload,
} from '@dsh/fixtures';
import { describe, expect, it } from 'vitest';
import { assembleLive, assemblePaged, findTool } from './conversation-helpers.js';

const t1 = { turn: 1 };
const questions = [
  { question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] },
  { question: 'Name?' },
];
const asked: Payload[] = [
  assistantMessage(t1, [toolCallBlock('q-call', 'ask_user', { questions })]),
  toolCall('q-call', 'ask_user', { questions }),
  questionRequested('q1', 'q-call', questions),
];

describe('createConversation() question answers', () => {
  it.each<{ name: string; payloads: Payload[]; answers: string[][] | undefined }>([
    { name: 'waiting', payloads: asked, answers: undefined },
    {
      name: 'answered',
      payloads: [
        ...asked,
        questionResolved('q1', [['b'], ['Ada']]),
        toolResult('q-call', 'b\nAda'),
      ],
      answers: [['b'], ['Ada']],
    },
    {
      name: 'declined',
      payloads: [
        ...asked,
        questionResolved('q1', 'cancelled'),
        toolResult('q-call', 'declined', { error: { code: 'cancelled', message: 'declined' } }),
      ],
      answers: undefined,
    },
    {
      name: 'answered for another call',
      payloads: [
        ...asked,
        questionRequested('q2', 'other', questions),
        questionResolved('q2', [['a'], ['x']]),
      ],
      answers: undefined,
    },
  ])('$name -> $answers on the block that asked', ({ payloads, answers }) => {
    const list = events(payloads);
    const whole = createConversation().apply({ kind: 'replace', events: list });
    expect(findTool(whole, 'q-call')?.answers).toEqual(answers);
    expect(assembleLive(list)).toEqual(whole);
    expect(assemblePaged(list, 2)).toEqual(whole);
  });

  it('keeps the answered block across a rebuild', () => {
    const list = events([...asked, questionResolved('q1', [['a'], ['Ada']])]);
    const conversation = createConversation();
    const first = findTool(conversation.apply({ kind: 'replace', events: list }), 'q-call');
    const again = findTool(conversation.apply({ kind: 'replace', events: list }), 'q-call');
    expect(again).toBe(first);
  });
});
