import { pendingViews, unansweredNote } from '@dsh/card-models';
import {
  approvalRequested,
  approvalResolved,
  questionRequested,
  scenarioByName,
  turnEnd,
  turnStart,
  userMessage,
  type Payload,
} from '@dsh/fixtures';
import { ApprovalDecision, TurnEndReason } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import { assemble } from './conversation-helpers.js';

const approvals = scenarioByName('approvals')!.payloads;
const openQuestion: Payload[] = [
  userMessage('Pick one'),
  turnStart(1),
  questionRequested('q-1', 'call-ask', [
    { question: 'Which?', options: [{ label: 'a' }, { label: 'b' }] },
  ]),
];

/** Windows, whether the session runs a turn, and the views of its pending items. */
const cases: [string, Payload[], boolean, { id: string; answerable: boolean; note: string }[]][] = [
  [
    'a live approval of a running session',
    approvals,
    true,
    [{ id: 'approval-3', answerable: true, note: '' }],
  ],
  [
    'the same approval when no turn runs',
    approvals,
    false,
    [{ id: 'approval-3', answerable: false, note: unansweredNote }],
  ],
  ['a live question', openQuestion, true, [{ id: 'q-1', answerable: true, note: '' }]],
  [
    'a question left by a stopped host',
    openQuestion,
    false,
    [{ id: 'q-1', answerable: false, note: unansweredNote }],
  ],
  [
    'an approval resolved as cancelled',
    [...approvals, approvalResolved('approval-3', ApprovalDecision.CANCELLED)],
    false,
    [],
  ],
  [
    'an approval of a turn that ended',
    [
      userMessage('x'),
      turnStart(1),
      approvalRequested('a-1', 'c-1', 'bash', ''),
      turnEnd(1, TurnEndReason.CANCELLED),
    ],
    true,
    [],
  ],
];

describe('pendingViews()', () => {
  it.each(cases)('%s', (_name, payloads, running, expected) => {
    const views = pendingViews(assemble(payloads).pending, running);
    expect(
      views.map((v) => ({
        id: v.item.kind === 'approval' ? v.item.approvalId : v.item.questionId,
        answerable: v.answerable,
        note: v.note,
      })),
    ).toEqual(expected);
  });
});
