import { create } from '@bufbuild/protobuf';
import type { PendingItem } from '@dsh/card-models';
import { QuestionSchema } from '@dsh/gen/events';
import { describe, expect, it } from 'vitest';
import {
  chooseOption,
  confirmChoice,
  startAnswers,
  typeAnswer,
} from '../src/ui/question-answers.js';

const item: Extract<PendingItem, { kind: 'question' }> = {
  kind: 'question',
  seq: 1,
  questionId: 'q1',
  callId: 'c1',
  questions: [
    create(QuestionSchema, {
      question: 'Manager?',
      options: [{ label: 'npm' }, { label: 'pnpm' }],
    }),
    create(QuestionSchema, {
      question: 'CI?',
      multiSelect: true,
      options: [{ label: 'GitHub' }, { label: 'GitLab' }, { label: 'Buildkite' }],
    }),
    create(QuestionSchema, { question: 'Name?' }),
  ],
};

describe('question answers', () => {
  it('answers single, multi and free-text questions in order', () => {
    let state = startAnswers(item);
    let step = chooseOption(item, state, 2);
    expect(step.kind).toBe('progress');
    if (step.kind !== 'progress') return;
    state = step.answers;
    expect(state.index).toBe(1);
    for (const n of [3, 1, 3, 3]) {
      step = chooseOption(item, state, n);
      if (step.kind === 'progress') state = step.answers;
    }
    expect(state.chosen).toEqual([0, 2]);
    step = confirmChoice(item, state);
    if (step.kind !== 'progress') throw new Error('expected progress');
    state = step.answers;
    expect(typeAnswer(item, state, '  ')).toEqual({ kind: 'ignored' });
    expect(typeAnswer(item, state, 'dsh')).toEqual({
      kind: 'done',
      answers: [['pnpm'], ['GitHub', 'Buildkite'], ['dsh']],
    });
  });

  it.each([
    ['an option that does not exist', () => chooseOption(item, startAnswers(item), 9)],
    ['confirming a single-select question', () => confirmChoice(item, startAnswers(item))],
  ])('ignores %s', (_name, run) => {
    expect(run()).toEqual({ kind: 'ignored' });
  });
});
